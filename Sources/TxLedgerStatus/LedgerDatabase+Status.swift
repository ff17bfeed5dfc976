import Foundation
import TxLedgerCore
import TxLedgerStore

/// What a status check reads and writes in the store.
extension LedgerDatabase {
    /// The sends and swaps whose status a chain may still change (broadcasted or pending),
    /// hidden ones included, newest first: what a status refresh checks.
    /// - Parameter vault: one vault, or every vault when `nil`.
    package func pendingRecords(vault: String? = nil) async throws -> [TransactionRecord] {
        var inProgress = HistoryFilter(vault: vault, includeHidden: true).inProgress
        inProgress.statuses = [.broadcasted, .pending]
        let filter = inProgress
        var records: [TransactionRecord] = []
        var cursor: PageCursor?
        repeat {
            let after = cursor
            let page = try await read { store in try store.page(filter, after: after, limit: 500) }
            records += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return records
    }

    /// The visible records of `vault` (or every vault) whose outcome devices dispute, newest
    /// first: a status check asks the chain (crdt.md, "Outcomes the chain settles").
    package func disputedRecords(vault: String?) async throws -> [TransactionRecord] {
        try await read { store in try store.disputedRecords(vault: vault) }
    }

    /// The visible records of `vault` (or every vault) broadcast at or after `since` whose
    /// proven outcome is another device's word, not the chain's answer, newest first: what
    /// `refresh --verify` checks again.
    package func outcomesOfOtherDevices(vault: String?, since: Date) async throws -> [TransactionRecord] {
        let me = replicaID
        return try await read { store in
            try store.terminalRecords(vault: vault, since: since).filter { state in
                guard let terminal = state.status.terminal else { return false }
                return !terminal.value.checkedOnChain && terminal.stamp.replica != me
            }
            .map(\.record)
        }
    }

    /// The visible records of `vault` (or every vault) whose failure was inferred at or after
    /// `since`, newest first, with the time of the inference: a status check looks at them
    /// again, so that a late receipt overturns the inference (status-tracking.md, "Proof and
    /// inference").
    package func inferredFailures(
        vault: String?,
        since: Date
    ) async throws -> [(record: TransactionRecord, inferredAt: Date)] {
        try await read { store in try store.inferredFailures(vault: vault, since: since) }
    }

    /// Writes what one status check found, in one transaction: the status through the lattice
    /// (`update`, if the chain gave an answer), an inference only once two checks agree
    /// (`LedgerTransaction.recordCheck`), and `lastCheckedAt`, which only moves forward.
    ///
    /// - Returns: the record afterwards, its status before, and whether the status changed; or
    ///   `nil` if the record is gone (a vault clear arrived meanwhile).
    package func recordCheck(
        _ id: TransactionID,
        update: StatusUpdate?,
        answered: Bool,
        checkedAt: Date,
        inferenceInterval: TimeInterval
    ) async throws -> (record: TransactionRecord, previous: TransactionStatus, changed: Bool)? {
        let checkedAt = Date(millis: checkedAt.millis)
        return try await write { transaction in
            try transaction.recordCheck(
                id,
                update: update,
                answered: answered,
                checkedAt: checkedAt,
                inferenceInterval: inferenceInterval
            )
        }
    }
}
