import Foundation
import TxLedgerCore
import TxLedgerMembership
import TxLedgerStore

/// Clearing a vault and restoring what a clear took (crdt.md, "Clearing a vault").
extension LedgerDatabase {
    /// Clears `vault` here and on every device this write reaches: the records this device
    /// holds, and nothing it has not seen. Cleared records older than the restore window are
    /// purged first.
    /// - Returns: how many records were cleared.
    package func clear(vault: String) async throws -> Int {
        try TextField.identifier.validate(vault, field: "vault")
        return try await write { transaction in
            try transaction.store.purgeCleared(
                before: transaction.stamps.wallClock().millis - RecordStore.restorableMillis
            )
            return try transaction.clear(vault: vault)
        }
    }

    /// The cleared records of `vault` this device holds and can restore, the latest recorded
    /// first, each with the device that cleared it where the vault's devices name it.
    package func clearedRecords(vault: String) async throws -> [ClearedRecord] {
        try TextField.identifier.validate(vault, field: "vault")
        let now = options.wallClock().millis
        return try await read { store in
            let membership = try store.membershipLog(vault)?.evaluate()
            return try store.clearedRecords(vault: vault, notBefore: now - RecordStore.restorableMillis).map {
                cleared in
                var named = cleared
                named.device = membership?.member(writingAs: cleared.clearedBy)?.name
                return named
            }
        }
    }

    /// Restores the cleared records `ids` of `vault` (all it holds when `nil`): a write that
    /// makes them visible again on every device it reaches.
    /// - Throws: `LedgerError.notFound` for an id of no cleared record of `vault` here.
    package func restoreCleared(vault: String, ids: [TransactionID]?) async throws -> [TransactionRecord] {
        try TextField.identifier.validate(vault, field: "vault")
        return try await write { try $0.restoreCleared(vault: vault, ids: ids) }
    }
}
