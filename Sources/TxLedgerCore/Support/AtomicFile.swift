import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file written under a temporary name next to its destination and renamed into place by
/// `commit()`, so that nobody (a sync folder, a spreadsheet) ever sees it half written. Without
/// `commit()` the temporary file is removed and an existing file at the destination is untouched.
package final class AtomicFile {
    /// Why the file could not be written, in words for an error message.
    package struct Failure: Error {
        package let reason: String
        /// The file system's error, when one said why.
        package var underlying: (any Error)? = nil
    }

    let path: String
    private let temporaryPath: String
    private let file: FileHandle
    private var committed = false

    /// Read and write for the owner only, whatever the umask: a file of plaintext history.
    package static let ownerOnly: mode_t = 0o600
    /// Read and write for everyone, less the umask: an encrypted bundle.
    package static let umasked: mode_t = 0o666

    /// - Parameters:
    ///   - protected: files the rename must never replace (the ledger's own database files): a
    ///     destination that is one of them, by path or hard link, is refused.
    ///   - mode: the new file's permissions (`ownerOnly` or `umasked`).
    package init(path: String, sparing protected: [String] = [], mode: mode_t) throws(Failure) {
        self.path = path
        if let target = FileIdentity(path: path, following: false),
            protected.contains(where: { FileIdentity(path: $0, following: true) == target })
        {
            throw Failure(reason: "it is this ledger's own database file; choose another path")
        }
        let url = URL(fileURLWithPath: path)
        temporaryPath =
            url.deletingLastPathComponent()
            .appendingPathComponent(Self.temporaryPrefix(of: url.lastPathComponent) + UUID().uuidString + ".partial")
            .path
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw Failure(reason: "its folder does not exist or is not writable")
        }
        // Held until the file is renamed or removed: `removeIfAbandoned` leaves it alone.
        _ = flock(descriptor, LOCK_EX | LOCK_NB)
        self.file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// How the name of a temporary file for `name` begins; it ends with `.partial`.
    private static func temporaryPrefix(of name: String) -> String { ".\(name)." }

    /// Whether `entry` is the name of a temporary file of a write of `name`.
    package static func isTemporary(_ entry: String, of name: String) -> Bool {
        entry.hasPrefix(temporaryPrefix(of: name)) && entry.hasSuffix(".partial")
    }

    /// Removes the temporary file at `path` if no process is writing it any more (a write
    /// killed before it committed or removed it): its writer's lock is gone. A file whose lock
    /// cannot be taken (held, or not supported by the file system) is left alone.
    /// - Returns: whether it was removed.
    package static func removeIfAbandoned(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
            flock(descriptor, LOCK_EX | LOCK_NB) == 0
        else { return false }
        return unlink(path) == 0
    }

    deinit {
        if !committed { try? FileManager.default.removeItem(atPath: temporaryPath) }
        try? file.close()
    }

    package func write(_ bytes: some DataProtocol) throws(Failure) {
        do {
            try file.write(contentsOf: bytes)
        } catch {
            throw Failure(reason: "it cannot be written (\(error.localizedDescription))", underlying: error)
        }
    }

    /// Flushes the file to disk and renames it into place, replacing any file there atomically.
    /// The file stays open, and locked, until it has its name.
    package func commit() throws(Failure) {
        do {
            try file.synchronize()
        } catch {
            throw Failure(reason: "it cannot be written (\(error.localizedDescription))", underlying: error)
        }
        guard rename(temporaryPath, path) == 0 else {
            throw Failure(reason: "it cannot be written (\(String(cString: strerror(errno))))")
        }
        committed = true
        try? file.close()
    }
}
