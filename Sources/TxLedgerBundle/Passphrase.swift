import TxLedgerCore
import TxLedgerSodium

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A passphrase that seals or opens bundles through Argon2id. Its bytes (UTF-8, taken as
/// given) live in `SecretBytes` and are wiped when it is released. Read it from an environment
/// variable, a file or a prompt: never from a command line, where other users can see it.
public struct Passphrase: Sendable {
    /// Longest accepted passphrase, in bytes.
    public static let maxBytes = 4096

    let secret: SecretBytes

    /// A copy of `bytes`, which the caller then wipes.
    /// - Throws: `BundleError.invalidPassphrase` if it is empty or longer than `maxBytes`.
    public init(copying bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { throw BundleError.invalidPassphrase("it is empty") }
        guard bytes.count <= Self.maxBytes else {
            throw BundleError.invalidPassphrase("it is longer than \(Self.maxBytes) bytes")
        }
        secret = SecretBytes(copying: bytes)
    }

    /// For an app that holds the passphrase as a `String` (which Swift cannot wipe).
    public init(_ text: String) throws {
        var bytes = Array(text.utf8)
        defer { bytes.withUnsafeMutableBytes(Sodium.wipe) }
        self = try bytes.withUnsafeBytes { try Passphrase(copying: $0) }
    }

    /// Whether two passphrases are the same bytes (constant time), e.g. a prompt's confirmation.
    public func matches(_ other: Passphrase) -> Bool {
        secret.withUnsafeBytes { mine in other.secret.withUnsafeBytes { Sodium.constantTimeEqual(mine, $0) } }
    }

    /// The value of environment variable `name`, which is then wiped from this process's
    /// environment block.
    public static func fromEnvironment(_ name: String) throws -> Passphrase {
        guard let value = getenv(name) else {
            throw BundleError.invalidPassphrase("environment variable \(name) is not set")
        }
        let bytes = UnsafeMutableRawBufferPointer(start: value, count: strlen(value))
        defer { Sodium.wipe(bytes) }
        return try Passphrase(copying: UnsafeRawBufferPointer(bytes))
    }

    /// Whether a passphrase file may be read by users other than its owner (its mode is not
    /// 0600 or stricter); callers warn about it, as about a key file.
    public static func isExposed(file path: String) -> Bool {
        SecretFile.isExposed(path)
    }

    /// The first line of a file (without its line break).
    public static func fromFile(_ path: String) throws -> Passphrase {
        let contents = try SecretFile.read(path, maxBytes: maxBytes + 2)
        return try contents.withUnsafeBytes { bytes in
            let end = bytes.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) ?? bytes.count
            return try Passphrase(copying: UnsafeRawBufferPointer(rebasing: bytes[..<end]))
        }
    }
}
