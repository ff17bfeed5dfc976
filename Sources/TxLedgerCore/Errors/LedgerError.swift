import Foundation

/// Every error the ledger throws. Each case says what went wrong and what to do about it, in
/// one sentence, and never contains keys, passphrases or bound SQL values; the paths and texts
/// it quotes are escaped (`OutsideText`).
public enum LedgerError: Error, Equatable, Sendable {
    /// A field of a record or a command argument is not acceptable. Nothing was written.
    case invalidInput(field: String, reason: String)
    /// No record has this id or transaction hash.
    case notFound(String)
    /// No such peer replica is known (in the vault, when one is named).
    case unknownPeer(ReplicaID, vault: String?)
    /// This ledger holds nothing of this vault.
    case unknownVault(String)
    /// A transaction hash matches records in several vaults or chains; the id tells them apart.
    case ambiguous(hash: String, ids: [TransactionID])
    /// The ledger file cannot be opened or read as a TxLedger database. It was not modified.
    case unreadableDatabase(path: String, reason: String)
    /// The ledger file was written by a newer TxLedger whose schema this version does not know.
    case newerSchema(path: String)
    /// A pagination cursor that this ledger did not produce, or from an older format.
    case invalidCursor
    /// Reading or writing the ledger failed (disk full, I/O error, locked for too long).
    /// The transaction was rolled back: nothing was changed.
    case storage(path: String, reason: String)
    /// A file the ledger was asked to write (an export) cannot be written. Nothing was left
    /// at its path, and the ledger was not changed.
    case output(path: String, reason: String)
}

extension LedgerError {
    /// A stable name of the case, for an app to branch on or to log (Specs/errors.md); it
    /// never changes with the wording of the message.
    public var code: String {
        switch self {
        case .invalidInput: "invalid_input"
        case .notFound: "not_found"
        case .unknownPeer: "unknown_peer"
        case .unknownVault: "unknown_vault"
        case .ambiguous: "ambiguous"
        case .unreadableDatabase: "unreadable_database"
        case .newerSchema: "newer_schema"
        case .invalidCursor: "invalid_cursor"
        case .storage: "storage"
        case .output: "output"
        }
    }
}

extension LedgerError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case let .invalidInput(field, reason):
            // The reason may quote the input (a bundle's content, an argument).
            return "invalid \(OutsideText.escaped(field)): \(OutsideText.escaped(reason, limit: 2000))"
        case let .notFound(key):
            return "no transaction with id or hash '\(OutsideText.escaped(key))' in this ledger"
        case let .unknownPeer(peer, vault):
            return "this ledger knows no peer \(peer)\(vault.map { " of vault '\(OutsideText.escaped($0))'" } ?? "")"
        case let .unknownVault(vault):
            return "this ledger holds no vault '\(OutsideText.escaped(vault))'"
        case let .ambiguous(hash, ids):
            return
                "hash '\(OutsideText.escaped(hash))' matches \(ids.count) records (\(ids.map(\.rawValue).joined(separator: ", "))); pass one of these ids instead"
        case let .unreadableDatabase(path, reason):
            return "cannot open ledger '\(OutsideText.escaped(path))': \(reason); the file was left untouched"
        case let .newerSchema(path):
            return
                "ledger '\(OutsideText.escaped(path))' was written by a newer TxLedger; upgrade TxLedger to open it (the file was left untouched)"
        case .invalidCursor:
            return "invalid cursor: pass back the nextCursor value of a previous page unchanged"
        case let .storage(path, reason):
            return
                "ledger '\(OutsideText.escaped(path))' failed: \(reason); nothing was changed, retry once the cause is fixed"
        case let .output(path, reason):
            return "cannot write '\(OutsideText.escaped(path))': \(reason)"
        }
    }
}
