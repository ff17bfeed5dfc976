import Foundation

extension Ledger {
    /// The sends and swaps whose status a chain may still change (broadcasted or pending),
    /// hidden ones included, newest first: what a status refresh checks.
    /// - Parameter vault: one vault, or every vault when `nil`.
    public func pendingRecords(vault: String? = nil) async throws -> [TransactionRecord] {
        var filter = HistoryFilter(vault: vault, includeHidden: true).inProgress
        filter.statuses = [.broadcasted, .pending]
        var records: [TransactionRecord] = []
        var cursor: PageCursor?
        repeat {
            let page = try await list(filter, limit: 500, after: cursor)
            records += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return records
    }

    /// Writes what one status check found, in one transaction: the status through the lattice
    /// (`update`, if the chain gave an answer) and `lastCheckedAt`, which only moves forward.
    ///
    /// - Returns: the record afterwards, its status before, and whether the status changed; or
    ///   `nil` if the record is gone (a vault clear arrived meanwhile).
    func recordCheck(
        _ id: TransactionID,
        update: StatusUpdate?,
        checkedAt: Date
    ) async throws -> (record: TransactionRecord, previous: TransactionStatus, changed: Bool)? {
        let checkedAt = Date(millis: checkedAt.millis)
        return try await write { transaction in
            try transaction.recordCheck(id, update: update, checkedAt: checkedAt)
        }
    }
}
