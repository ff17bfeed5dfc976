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

    /// - Parameter protected: files the rename must never replace (the ledger's own database
    ///   files): a destination that is one of them, by path or hard link, is refused.
    init(path: String, sparing protected: [String] = []) throws(Failure) {
        self.path = path
        if let target = Self.identity(path, following: false),
            protected.contains(where: { Self.identity($0, following: true).map { $0 == target } ?? false })
        {
            throw Failure(reason: "it is this ledger's own database file; choose another path")
        }
        let url = URL(fileURLWithPath: path)
        temporaryPath =
            url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial").path
        guard FileManager.default.createFile(atPath: temporaryPath, contents: nil),
            let file = FileHandle(forWritingAtPath: temporaryPath)
        else {
            throw Failure(reason: "its folder does not exist or is not writable")
        }
        self.file = file
    }

    deinit {
        try? file.close()
        if !committed { try? FileManager.default.removeItem(atPath: temporaryPath) }
    }

    /// The device and inode of the file at `path`, if there is one; a symbolic link itself
    /// unless `following` (a rename replaces the link, not what it points to).
    private static func identity(_ path: String, following: Bool) -> [UInt64]? {
        var info = stat()
        guard (following ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
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
