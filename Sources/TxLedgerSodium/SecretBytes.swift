#if canImport(Clibsodium)
internal import Clibsodium
#else
internal import CSodium
#endif

/// Bytes that must not outlive their use: a sync key, a passphrase, a derived subkey.
///
/// They live in memory from `sodium_malloc` (guard pages, locked in RAM where the system
/// allows) and are wiped by `sodium_free` when the last reference goes. They never print:
/// `description` is a placeholder, so a secret in a log line or an error shows nothing.
package final class SecretBytes: @unchecked Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    // @unchecked: the bytes are written once, in `init`, and only read afterwards.
    package let count: Int
    private let pointer: UnsafeMutableRawPointer

    /// `count` bytes written by `fill`; if `fill` throws, the bytes are wiped and freed.
    package init(count: Int, fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        precondition(count > 0, "a secret has at least one byte")
        Sodium.ensureInitialized()
        guard let pointer = sodium_malloc(count) else { fatalError("sodium_malloc failed: out of memory") }
        self.count = count
        self.pointer = pointer
        try fill(UnsafeMutableRawBufferPointer(start: pointer, count: count))
    }

    /// A copy of `bytes`; the caller wipes its own copy (see `Sodium.wipe`).
    package convenience init(copying bytes: UnsafeRawBufferPointer) {
        self.init(count: bytes.count) { $0.copyMemory(from: bytes) }
    }

    /// `count` random bytes from libsodium's CSPRNG.
    package static func random(count: Int) -> SecretBytes {
        SecretBytes(count: count) { randombytes_buf($0.baseAddress!, $0.count) }
    }

    deinit { sodium_free(pointer) }

    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    package var description: String { "<secret: \(count) bytes>" }
    package var debugDescription: String { description }
}
