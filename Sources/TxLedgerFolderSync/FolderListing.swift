import Foundation
import TxLedgerCore

#if canImport(Glibc)
import Glibc
#endif

/// What a sync folder holds, as one listing sees it (Specs/folder-sync.md, "One sync"): its
/// regular files with their sizes, the entries named like a sync's file that are not regular
/// files (a link, a folder, a FIFO: never read), and the temporary files of writes.
struct FolderListing {
    var files: [String: Int] = [:]
    var irregular: [String] = []
    var temporary: [String] = []

    /// Lists `folder`, looking at each entry itself (`lstat`: a link is not followed).
    /// - Throws: `BundleError.io` if the folder cannot be listed.
    init(_ folder: String) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw BundleError.io(path: folder, reason: "the folder does not exist or cannot be read")
        }
        for name in names {
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFREG {
                if name.hasPrefix("." + FolderFileName.prefix) && name.hasSuffix(".partial") {
                    temporary.append(name)
                } else {
                    files[name] = Int(info.st_size)
                }
            } else if FolderFileName.kind(of: name) == .bundle {
                irregular.append(name)
            }
        }
    }
}
