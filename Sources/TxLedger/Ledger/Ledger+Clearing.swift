import TxLedgerCore
import TxLedgerReplication

extension Ledger {
    /// Clears a vault's history here and on every device that syncs with this one
    /// (Specs/crdt.md, "Clearing a vault"): every record this device holds of it is cleared;
    /// records and edits this device has not seen, wherever and whenever they were made, are
    /// kept. Cleared records stay restorable on each device for 30 days.
    /// - Returns: how many records were cleared here.
    @discardableResult
    public func clearHistory(vault: String) async throws -> Int {
        try await database.clear(vault: vault)
    }

    /// The cleared records of `vault` that this device can still restore, the latest recorded
    /// first, with who cleared each and until when it is kept.
    public func clearedRecords(vault: String) async throws -> [ClearedRecord] {
        try await database.clearedRecords(vault: vault)
    }

    /// Restores cleared records of `vault`: the ones named by `ids`, or every one this device
    /// holds when `ids` is `nil`. A restore is a write: it reaches every device as any other.
    /// - Returns: the restored records, visible again.
    /// - Throws: `LedgerError.notFound` for an id of no cleared record of `vault` here (nothing
    ///   is restored then).
    @discardableResult
    public func restoreCleared(vault: String, ids: [TransactionID]? = nil) async throws -> [TransactionRecord] {
        try await database.restoreCleared(vault: vault, ids: ids)
    }
}
