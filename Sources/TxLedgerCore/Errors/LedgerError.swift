import Foundation

/// Every error the ledger throws. Each says what went wrong and what to do about it, in one
/// sentence, and never contains keys, passphrases or bound SQL values; the paths and texts it
/// quotes are escaped (`OutsideText`).
///
/// A struct with a `code`, as GRDB's `DatabaseError` has its `ResultCode`: a later version may
/// add codes without breaking an app, whose `switch` over `code` has a `default:` (Specs/errors.md).
/// Branch on the code:
///
/// ```swift
/// do { try await ledger.setNote("paid", for: id) }
/// catch let error as LedgerError where error.code == .notFound { /* gone */ }
/// ```
///
/// The static functions named as the codes make each error (`LedgerError.notFound("0x88df…")`);
/// its details are properties (`field`, `reason`, `path`...), set for the codes their
/// documentation names. An error that another one caused keeps it in `underlying`.
public struct LedgerError: Error, Sendable {
    /// What kind of failure it is: a stable name, for an app to branch on or to log; it never
    /// changes with the wording of the message. Later versions may add codes.
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        /// A field of a record or a command argument is not acceptable. Nothing was written.
        public static let invalidInput: Code = "invalid_input"
        /// No record has this id or transaction hash.
        public static let notFound: Code = "not_found"
        /// No such peer replica is known (in the vault, when one is named).
        public static let unknownPeer: Code = "unknown_peer"
        /// This ledger holds nothing of this vault.
        public static let unknownVault: Code = "unknown_vault"
        /// A transaction hash matches records in several vaults or chains; the id tells them apart.
        public static let ambiguous: Code = "ambiguous"
        /// The ledger file cannot be opened or read as a TxLedger database. It was not modified.
        public static let unreadableDatabase: Code = "unreadable_database"
        /// The ledger file was written by a newer TxLedger whose schema this version does not know.
        public static let newerSchema: Code = "newer_schema"
        /// A pagination cursor that this ledger did not produce, or from an older format.
        public static let invalidCursor: Code = "invalid_cursor"
        /// Reading or writing the ledger failed (disk full, I/O error, locked for too long).
        /// The transaction was rolled back: nothing was changed.
        public static let storage: Code = "storage"
        /// A file the ledger was asked to write (an export) cannot be written. Nothing was left
        /// at its path, and the ledger was not changed.
        public static let output: Code = "output"
    }

    public let code: Code
    /// The field or argument at fault (`invalidInput`): a record's field by its JSON path
    /// (`toAddress`, `token.symbol`), a frame's by its spec name (`block_number`), an argument
    /// by its name (Specs/schema.md, below the fields' table).
    public let field: String?
    /// Why (`invalidInput`, `unreadableDatabase`, `storage`, `output`).
    public let reason: String?
    /// The file at fault (`unreadableDatabase`, `newerSchema`, `storage`, `output`).
    public let path: String?
    /// The id or hash looked up (`notFound`), or the hash that matched several records
    /// (`ambiguous`).
    public let key: String?
    /// The vault (`unknownVault`; `unknownPeer` when one was named).
    public let vault: String?
    /// The peer (`unknownPeer`).
    public let replica: ReplicaID?
    /// The records a hash matched (`ambiguous`).
    public let ids: [TransactionID]
    /// The error that caused this one, if another did (SQLite's, the file system's, a
    /// decoder's): for logs and diagnosis; `localizedDescription` already says what it means.
    public let underlying: (any Error & Sendable)?

    private init(
        _ code: Code,
        field: String? = nil,
        reason: String? = nil,
        path: String? = nil,
        key: String? = nil,
        vault: String? = nil,
        replica: ReplicaID? = nil,
        ids: [TransactionID] = [],
        underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.field = field
        self.reason = reason
        self.path = path
        self.key = key
        self.vault = vault
        self.replica = replica
        self.ids = ids
        self.underlying = underlying
    }

    /// A field of a record or a command argument is not acceptable. Nothing was written.
    public static func invalidInput(
        field: String,
        reason: String,
        underlying: (any Error & Sendable)? = nil
    ) -> LedgerError {
        LedgerError(.invalidInput, field: field, reason: reason, underlying: underlying)
    }

    /// No record has this id or transaction hash.
    public static func notFound(_ key: String) -> LedgerError {
        LedgerError(.notFound, key: key)
    }

    /// No such peer replica is known (in `vault`, when one is named).
    public static func unknownPeer(_ replica: ReplicaID, vault: String?) -> LedgerError {
        LedgerError(.unknownPeer, vault: vault, replica: replica)
    }

    /// This ledger holds nothing of `vault`.
    public static func unknownVault(_ vault: String) -> LedgerError {
        LedgerError(.unknownVault, vault: vault)
    }

    /// `hash` matches the records `ids`, in several vaults or chains.
    public static func ambiguous(hash: String, ids: [TransactionID]) -> LedgerError {
        LedgerError(.ambiguous, key: hash, ids: ids)
    }

    /// The file at `path` cannot be opened or read as a TxLedger database.
    public static func unreadableDatabase(
        path: String,
        reason: String,
        underlying: (any Error & Sendable)? = nil
    ) -> LedgerError {
        LedgerError(.unreadableDatabase, reason: reason, path: path, underlying: underlying)
    }

    /// A newer TxLedger wrote the file at `path`.
    public static func newerSchema(path: String) -> LedgerError {
        LedgerError(.newerSchema, path: path)
    }

    /// A pagination cursor that this ledger did not produce.
    public static let invalidCursor = LedgerError(.invalidCursor)

    /// Reading or writing the ledger at `path` failed; the transaction was rolled back.
    public static func storage(path: String, reason: String, underlying: (any Error & Sendable)? = nil) -> LedgerError {
        LedgerError(.storage, reason: reason, path: path, underlying: underlying)
    }

    /// The file at `path` cannot be written.
    public static func output(path: String, reason: String, underlying: (any Error & Sendable)? = nil) -> LedgerError {
        LedgerError(.output, reason: reason, path: path, underlying: underlying)
    }
}

/// Two errors are equal when they say the same: their codes and details; their causes are
/// not compared.
extension LedgerError: Equatable {
    public static func == (lhs: LedgerError, rhs: LedgerError) -> Bool {
        lhs.code == rhs.code && lhs.field == rhs.field && lhs.reason == rhs.reason && lhs.path == rhs.path
            && lhs.key == rhs.key && lhs.vault == rhs.vault && lhs.replica == rhs.replica && lhs.ids == rhs.ids
    }
}

extension LedgerError: LocalizedError {
    public var errorDescription: String? {
        let path = OutsideText.escaped(self.path ?? "")
        switch code {
        case .invalidInput:
            // The reason may quote the input (a bundle's content, an argument).
            return
                "invalid \(OutsideText.escaped(field ?? "input")): \(OutsideText.escaped(reason ?? "", limit: 2000))"
        case .notFound:
            return "no transaction with id or hash '\(OutsideText.escaped(key ?? ""))' in this ledger"
        case .unknownPeer:
            let peer = replica.map { "\($0)" } ?? "?"
            return "this ledger knows no peer \(peer)\(vault.map { " of vault '\(OutsideText.escaped($0))'" } ?? "")"
        case .unknownVault:
            return "this ledger holds no vault '\(OutsideText.escaped(vault ?? ""))'"
        case .ambiguous:
            return
                "hash '\(OutsideText.escaped(key ?? ""))' matches \(ids.count) records (\(ids.map(\.rawValue).joined(separator: ", "))); pass one of these ids instead"
        case .unreadableDatabase:
            return "cannot open ledger '\(path)': \(reason ?? "it cannot be read"); the file was left untouched"
        case .newerSchema:
            return
                "ledger '\(path)' was written by a newer TxLedger; upgrade TxLedger to open it (the file was left untouched)"
        case .invalidCursor:
            return "invalid cursor: pass back the nextCursor value of a previous page unchanged"
        case .storage:
            return
                "ledger '\(path)' failed: \(reason ?? "an error occurred"); nothing was changed, retry once the cause is fixed"
        case .output:
            return "cannot write '\(path)': \(reason ?? "an error occurred")"
        default:
            return "\(code)\(reason.map { ": \(OutsideText.escaped($0, limit: 2000))" } ?? "")"
        }
    }
}
