import Foundation

/// Why a bundle could not be written, opened or read. Each is one sentence that says what to
/// do; none contains a key, a passphrase or anything decrypted. Whatever the code, the ledger
/// was not changed.
///
/// A struct with a `code`, as `LedgerError` is: a later version may add codes without breaking
/// an app whose `switch` over `code` has a `default:` (Specs/errors.md). The static functions
/// named as the codes make each error; its details are properties.
public struct BundleError: Error, Sendable {
    /// What kind of failure it is (Specs/errors.md): for bundles, the failure classes of the
    /// test vectors (bundle-format.md, "Reading"). Later versions may add codes.
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        /// The file does not start with the bundle magic bytes (or is too short to).
        public static let notABundle: Code = "not_a_bundle"
        /// A bundle format version (or key mode) this TxLedger does not read.
        public static let unsupportedVersion: Code = "unsupported_version"
        /// The key or passphrase does not open this bundle (or the fields it is derived with,
        /// salt, KDF parameters and key check, were altered: a reader cannot tell these apart).
        public static let wrongSecret: Code = "wrong_secret"
        /// The bundle is sealed for the other kind of secret.
        public static let secretKindMismatch: Code = "secret_kind_mismatch"
        /// A bundle sealed for the vault's devices (format 5) has no stanza this device opens:
        /// it was removed from the vault, or is not approved yet.
        public static let notARecipient: Code = "not_a_recipient"
        /// A format 5 bundle's signature does not verify with its author's key.
        public static let badSignature: Code = "bad_signature"
        /// A format 5 bundle's author is not a member of the vault as the reader evaluates its
        /// membership (removed, or never approved): nothing of it counts.
        public static let notAMember: Code = "not_a_member"
        /// The header authenticated with the right key does not match its MAC: it was altered.
        public static let headerTampered: Code = "header_tampered"
        /// A chunk of the payload does not authenticate: altered, reordered, or cut inside a chunk.
        public static let payloadTampered: Code = "payload_tampered"
        /// The bundle ends before its final chunk: it was cut short (or is still being copied).
        public static let truncated: Code = "truncated"
        /// Bytes follow the final chunk.
        public static let trailingData: Code = "trailing_data"
        /// The payload authenticates but does not hold a valid change set (a writer's bug, or a
        /// device holding the key that wrote hostile content).
        public static let malformedContent: Code = "malformed_content"
        /// A printed or stored sync key is malformed, or its checksum does not match (mistyped).
        public static let invalidKey: Code = "invalid_key"
        /// A passphrase that cannot be used (empty, or longer than the limit).
        public static let invalidPassphrase: Code = "invalid_passphrase"
        /// Reading or writing a file failed.
        public static let io: Code = "io"
        /// The system could not give Argon2id the memory the bundle's parameters ask for.
        public static let insufficientMemory: Code = "insufficient_memory"
    }

    public let code: Code
    /// What is wrong (`unsupportedVersion`, `malformedContent`, `invalidKey`,
    /// `invalidPassphrase`, `io`).
    public let reason: String?
    /// The kind of secret: the one that did not open the bundle (`wrongSecret`), or the one the
    /// bundle is sealed with (`secretKindMismatch`).
    public let mode: KeyMode?
    /// The chunk that did not authenticate, from 0 (`payloadTampered`).
    public let chunk: Int?
    /// The file (`io`).
    public let path: String?
    /// The memory asked for (`insufficientMemory`).
    public let bytes: UInt64?
    /// The error that caused this one, if another did (the file system's, a record's
    /// `LedgerError`): for logs and diagnosis.
    public let underlying: (any Error & Sendable)?

    private init(
        _ code: Code,
        reason: String? = nil,
        mode: KeyMode? = nil,
        chunk: Int? = nil,
        path: String? = nil,
        bytes: UInt64? = nil,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.reason = reason
        self.mode = mode
        self.chunk = chunk
        self.path = path
        self.bytes = bytes
        self.underlying = underlying
    }

    public static let notABundle = BundleError(.notABundle)

    public static func unsupportedVersion(_ what: String) -> BundleError {
        BundleError(.unsupportedVersion, reason: what)
    }

    public static func wrongSecret(_ mode: KeyMode) -> BundleError {
        BundleError(.wrongSecret, mode: mode)
    }

    public static func secretKindMismatch(bundle: KeyMode) -> BundleError {
        BundleError(.secretKindMismatch, mode: bundle)
    }

    public static let notARecipient = BundleError(.notARecipient, mode: .deviceKeys)

    public static let badSignature = BundleError(.badSignature, mode: .deviceKeys)

    /// `reason` says who the author is and why it is not a member.
    public static func notAMember(_ reason: String) -> BundleError {
        BundleError(.notAMember, reason: reason, mode: .deviceKeys)
    }

    public static let headerTampered = BundleError(.headerTampered)

    public static func payloadTampered(chunk: Int) -> BundleError {
        BundleError(.payloadTampered, chunk: chunk)
    }

    public static let truncated = BundleError(.truncated)

    public static let trailingData = BundleError(.trailingData)

    public static func malformedContent(_ reason: String, underlying: (any Error & Sendable)? = nil) -> BundleError {
        BundleError(.malformedContent, reason: reason, underlying: underlying)
    }

    public static func invalidKey(_ reason: String) -> BundleError {
        BundleError(.invalidKey, reason: reason)
    }

    public static func invalidPassphrase(_ reason: String) -> BundleError {
        BundleError(.invalidPassphrase, reason: reason)
    }

    public static func io(path: String, reason: String, underlying: (any Error & Sendable)? = nil) -> BundleError {
        BundleError(.io, reason: reason, path: path, underlying: underlying)
    }

    public static func insufficientMemory(bytes: UInt64) -> BundleError {
        BundleError(.insufficientMemory, bytes: bytes)
    }
}

/// Two errors are equal when they say the same: their codes and details; their causes are
/// not compared.
extension BundleError: Equatable {
    public static func == (lhs: BundleError, rhs: BundleError) -> Bool {
        lhs.code == rhs.code && lhs.reason == rhs.reason && lhs.mode == rhs.mode && lhs.chunk == rhs.chunk
            && lhs.path == rhs.path && lhs.bytes == rhs.bytes
    }
}

extension BundleError: LocalizedError {
    public var errorDescription: String? {
        let reason = self.reason ?? ""
        let secret = mode?.secretName ?? "secret"
        switch code {
        case .notABundle:
            return "not a TxLedger bundle (it does not start with the bundle magic bytes)"
        case .unsupportedVersion:
            return "unsupported bundle: \(reason); a newer TxLedger may read it"
        case .wrongSecret:
            return "the \(secret) does not open this bundle (wrong \(secret), or its key fields were altered)"
        case .secretKindMismatch where mode == .deviceKeys:
            return "this bundle is sealed for the vault's devices, not with a shared secret; read it on a member device"
        case .secretKindMismatch:
            return "this bundle is sealed with a \(secret); give that instead"
        case .notARecipient:
            return "this device cannot open the bundle: it was removed from the vault, or is not approved yet"
        case .badSignature:
            return "the bundle's signature does not verify with its author's key; nothing was imported"
        case .notAMember:
            return "the bundle's author \(OutsideText.escaped(reason, limit: 500)); nothing of it was imported"
        case .headerTampered:
            return "the bundle header was altered (its MAC does not match); nothing was imported"
        case .payloadTampered:
            return
                "chunk \(chunk ?? 0) of the bundle does not authenticate: it was altered or cut short; nothing was imported"
        case .truncated:
            return "the bundle is truncated (it ends before its final chunk); copy it again"
        case .trailingData:
            return "the bundle has data after its final chunk; it was altered or mis-copied"
        case .malformedContent:
            return
                "the bundle decrypts but its content is invalid (\(OutsideText.escaped(reason, limit: 2000))); nothing was imported"
        case .invalidKey:
            return "invalid sync key: \(reason)"
        case .invalidPassphrase:
            return "invalid passphrase: \(reason)"
        case .io:
            return "cannot use '\(OutsideText.escaped(path ?? ""))': \(reason)"
        case .insufficientMemory:
            return "not enough memory for the passphrase's key derivation (\((bytes ?? 0) / (1 << 20)) MiB)"
        default:
            return "\(code)\(self.reason.map { ": \(OutsideText.escaped($0, limit: 2000))" } ?? "")"
        }
    }
}
