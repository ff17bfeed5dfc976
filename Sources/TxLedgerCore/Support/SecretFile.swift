import TxLedgerSodium

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and writes small secret files (key files, passphrase files) without passing their
/// bytes through Swift strings or `Data`, which cannot be wiped.
package enum SecretFile {
    /// The whole file, which must hold 1 to `maxBytes` bytes.
    package static func read(_ path: String, maxBytes: Int) throws -> SecretBytes {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw BundleError.io(path: path, reason: errnoDescription()) }
        defer { close(fd) }
        var count = 0
        var failure: BundleError?
        let buffer = SecretBytes(count: maxBytes + 1) { buffer in
            while count < buffer.count {
                let n = systemRead(fd, buffer.baseAddress! + count, buffer.count - count)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = .io(path: path, reason: errnoDescription())
                    return
                }
                if n == 0 { break }
                count += n
            }
        }
        if let failure { throw failure }
        guard count > 0 else { throw BundleError.io(path: path, reason: "the file is empty") }
        guard count <= maxBytes else {
            throw BundleError.io(path: path, reason: "the file is larger than \(maxBytes) bytes")
        }
        return buffer.withUnsafeBytes { SecretBytes(copying: UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
    }

    /// Creates `path` with mode 0600 (never replacing an existing file) and writes `bytes`.
    package static func create(_ path: String, bytes: SecretBytes) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else {
            throw BundleError.io(
                path: path,
                reason: errno == EEXIST ? "the file exists; a key is never overwritten" : errnoDescription()
            )
        }
        var ok = bytes.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count {
                let n = write(fd, bytes.baseAddress! + written, bytes.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += n
            }
            return true
        }
        ok = ok && fsync(fd) == 0
        let reason = errnoDescription()
        close(fd)
        guard ok else {
            unlink(path)
            throw BundleError.io(path: path, reason: reason)
        }
    }

    /// Whether users other than the owner may read the file (its mode has group or other bits).
    package static func isExposed(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return info.st_mode & 0o077 != 0
    }

    package static func errnoDescription() -> String {
        String(cString: strerror(errno))
    }
}

/// `read(2)`; `SecretFile.read` hides the global name inside the enum.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
