import TxLedgerCore
import TxLedgerStore

extension Ledger {
    /// The first `limit` records of `filter`, now and again after every change that alters
    /// what a screen shows of them: a record, a status update, an annotation, a merge or an
    /// imported bundle, written through this `Ledger` (GRDB observes its own database pool;
    /// open one `Ledger` per file in an app). Writes that change nothing shown yield nothing: a
    /// refresh that only moves `lastCheckedAt` does not re-render a list. An app that has loaded
    /// several pages observes them all at once with `limit` their total (pages are keyset, so
    /// their sections keep their ids).
    ///
    /// ```swift
    /// for try await page in ledger.observe(HistoryFilter(vault: "main"), limit: 50) {
    ///     show(page.items)
    /// }
    /// ```
    /// The sequence ends when the task iterating it is cancelled.
    /// - Throws: `LedgerError.invalidInput` for a limit below 1, `LedgerError.storage` if a read fails.
    public func observe(
        _ filter: HistoryFilter = HistoryFilter(),
        limit: Int = 50
    ) -> AsyncThrowingStream<Page, Error> {
        database.observe(
            check: { try Self.checkLimit(limit) },
            shown: { $0.items.map(\.shown) },
            fetch: { store in try store.page(filter, after: nil, limit: limit) }
        )
    }

    /// One record, now and again whenever what a screen shows of it changes (its status, its
    /// note...); `nil` while this ledger holds no visible record with this id.
    public func observe(id: TransactionID) -> AsyncThrowingStream<TransactionRecord?, Error> {
        database.observe(
            shown: { $0?.shown },
            fetch: { store in try store.fetch(id: id)?.record }
        )
    }

    /// The counts of the tabs under `filter` (whose own tab is ignored), now and again whenever
    /// they change.
    public func observeTabCounts(
        _ filter: HistoryFilter = HistoryFilter()
    ) -> AsyncThrowingStream<HistoryTabCounts, Error> {
        database.observe(
            shown: { $0 },
            fetch: { store in try store.tabCounts(filter) }
        )
    }
}
