import Foundation

/// Why a bundle could not be written, opened or read. Each case is one sentence that says what
/// to do; none contains a key, a passphrase or anything decrypted. Whatever the case, the
/// ledger was not changed.
public enum BundleError: Error, Equatable, Sendable {
    /// The file does not start with the bundle magic bytes (or is too short to).
    case notABundle
    /// A bundle format version (or key mode) this TxLedger does not read.
    case unsupportedVersion(String)
    /// The key or passphrase does not open this bundle (or the fields it is derived with, salt,
    /// KDF parameters and key check, were altered: a reader cannot tell these apart).
    case wrongSecret(KeyMode)
    /// The bundle is sealed for the other kind of secret (a sync key instead of a passphrase, or
    /// the reverse).
    case secretKindMismatch(bundle: KeyMode)
    /// The header authenticated with the right key does not match its MAC: it was altered.
    case headerTampered
    /// A chunk of the payload does not authenticate: altered, reordered, or cut inside a chunk.
    case payloadTampered(chunk: Int)
    /// The bundle ends before its final chunk: it was cut short (or is still being copied).
    case truncated
    /// Bytes follow the final chunk.
    case trailingData
    /// The payload authenticates but does not hold a valid change set (a writer's bug, or a
    /// device holding the key that wrote hostile content).
    case malformedContent(String)
    /// A printed or stored sync key is malformed, or its checksum does not match (mistyped).
    case invalidKey(String)
    /// A passphrase that cannot be used (empty, or longer than the limit).
    case invalidPassphrase(String)
    /// Reading or writing a file failed.
    case io(path: String, reason: String)
    /// The system could not give Argon2id the memory the bundle's parameters ask for.
    case insufficientMemory(bytes: UInt64)
}

extension BundleError {
    /// A stable name of the case (Specs/errors.md): the failure classes of the test vectors
    /// (bundle-format.md, "Reading") and the names of the other cases.
    public var code: String {
        switch self {
        case .notABundle: "not_a_bundle"
        case .unsupportedVersion: "unsupported_version"
        case .wrongSecret: "wrong_secret"
        case .secretKindMismatch: "secret_kind_mismatch"
        case .headerTampered: "header_tampered"
        case .payloadTampered: "payload_tampered"
        case .truncated: "truncated"
        case .trailingData: "trailing_data"
        case .malformedContent: "malformed_content"
        case .invalidKey: "invalid_key"
        case .invalidPassphrase: "invalid_passphrase"
        case .io: "io"
        case .insufficientMemory: "insufficient_memory"
        }
    }
}

extension BundleError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .notABundle:
            return "not a TxLedger bundle (it does not start with the bundle magic bytes)"
        case let .unsupportedVersion(what):
            return "unsupported bundle: \(what); a newer TxLedger may read it"
        case let .wrongSecret(mode):
            return
                "the \(mode.secretName) does not open this bundle (wrong \(mode.secretName), or its key fields were altered)"
        case let .secretKindMismatch(bundle):
            return "this bundle is sealed with a \(bundle.secretName); give that instead"
        case .headerTampered:
            return "the bundle header was altered (its MAC does not match); nothing was imported"
        case let .payloadTampered(chunk):
            return
                "chunk \(chunk) of the bundle does not authenticate: it was altered or cut short; nothing was imported"
        case .truncated:
            return "the bundle is truncated (it ends before its final chunk); copy it again"
        case .trailingData:
            return "the bundle has data after its final chunk; it was altered or mis-copied"
        case let .malformedContent(reason):
            return
                "the bundle decrypts but its content is invalid (\(OutsideText.escaped(reason, limit: 2000))); nothing was imported"
        case let .invalidKey(reason):
            return "invalid sync key: \(reason)"
        case let .invalidPassphrase(reason):
            return "invalid passphrase: \(reason)"
        case let .io(path, reason):
            return "cannot use '\(OutsideText.escaped(path))': \(reason)"
        case let .insufficientMemory(bytes):
            return "not enough memory for the passphrase's key derivation (\(bytes / (1 << 20)) MiB)"
        }
    }
}
