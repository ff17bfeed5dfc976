import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file written under a temporary name next to its destination and renamed into place by
/// `commit()`, so that nobody (a sync folder, a spreadsheet) ever sees it half written. Without
/// `commit()` the temporary file is removed and an existing file at the destination is untouched.
final class AtomicFile {
    /// Why the file could not be written, in words for an error message.
    struct Failure: Error {
        let reason: String
    }

    let path: String
    private let temporaryPath: String
    private let file: FileHandle
    private var committed = false

    init(path: String) throws(Failure) {
        self.path = path
        let url = URL(fileURLWithPath: path)
        temporaryPath = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial").path
        guard FileManager.default.createFile(atPath: temporaryPath, contents: nil),
              let file = FileHandle(forWritingAtPath: temporaryPath) else {
            throw Failure(reason: "its folder does not exist or is not writable")
        }
        self.file = file
    }

    deinit {
        try? file.close()
        if !committed { try? FileManager.default.removeItem(atPath: temporaryPath) }
    }

    func write(_ bytes: some DataProtocol) throws(Failure) {
        do {
            try file.write(contentsOf: bytes)
        } catch {
            throw Failure(reason: "it cannot be written (\(error.localizedDescription))")
        }
    }

    /// Flushes the file to disk and renames it into place, replacing any file there atomically.
    func commit() throws(Failure) {
        do {
            try file.synchronize()
            try file.close()
        } catch {
            throw Failure(reason: "it cannot be written (\(error.localizedDescription))")
        }
        guard rename(temporaryPath, path) == 0 else {
            throw Failure(reason: "it cannot be written (\(String(cString: strerror(errno))))")
        }
        committed = true
    }
}
