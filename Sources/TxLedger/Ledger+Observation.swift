import GRDB

extension Ledger {
    /// The first page of `filter`, now and again after every change that alters it: a record,
    /// a status update or refresh, an annotation, a merge or an imported bundle, written through
    /// this `Ledger` (GRDB observes its own database pool; open one `Ledger` per file in an app).
    /// Writes that leave the page as it was yield nothing.
    ///
    /// ```swift
    /// for try await page in ledger.observe(HistoryFilter(vault: "main"), limit: 50) {
    ///     show(page.items)
    /// }
    /// ```
    /// The sequence ends when the task iterating it is cancelled.
    /// - Throws: `LedgerError.invalidInput` for a limit below 1, `LedgerError.storage` if a read fails.
    public func observe(_ filter: HistoryFilter = HistoryFilter(), limit: Int = 50) -> AsyncThrowingStream<Page, Error> {
        let path = path, pool = pool
        let observation = ValueObservation
            .tracking { db in try RecordStore(db, path: path).page(filter, after: nil, limit: limit) }
            .removeDuplicates()
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try Self.checkLimit(limit)
                    for try await page in observation.values(in: pool) {
                        continuation.yield(page)
                    }
                    continuation.finish()
                } catch let error as DatabaseError {
                    continuation.finish(throwing: LedgerError.storage(path: path, reason: Self.describe(error)))
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
