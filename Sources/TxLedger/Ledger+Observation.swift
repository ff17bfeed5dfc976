import GRDB

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
        let (path, tables) = (path, frameTables)
        return observing(
            check: { try Self.checkLimit(limit) },
            shown: { $0.items.map(\.shown) },
            fetch: { db in try RecordStore(db, path: path, tables: tables).page(filter, after: nil, limit: limit) }
        )
    }

    /// One record, now and again whenever what a screen shows of it changes (its status, its
    /// note...); `nil` while this ledger holds no visible record with this id.
    public func observe(id: TransactionID) -> AsyncThrowingStream<TransactionRecord?, Error> {
        let (path, tables) = (path, frameTables)
        return observing(
            shown: { $0?.shown },
            fetch: { db in try RecordStore(db, path: path, tables: tables).fetch(id: id)?.record }
        )
    }

    /// The counts of the tabs under `filter` (whose own tab is ignored), now and again whenever
    /// they change.
    public func observeTabCounts(
        _ filter: HistoryFilter = HistoryFilter()
    ) -> AsyncThrowingStream<HistoryTabCounts, Error> {
        let (path, tables) = (path, frameTables)
        return observing(
            shown: { $0 },
            fetch: { db in try RecordStore(db, path: path, tables: tables).tabCounts(filter) }
        )
    }

    /// `fetch`'s value now and after every write that changes what `shown` keeps of it: those
    /// through this ledger (GRDB's observation), and those of other processes, found by
    /// reading the file's change counter every `Options.externalChangesPollMillis` and reading the
    /// value again when it is ahead of the last value read. A value read at an older change
    /// number than one already read is dropped, so the two sources never yield an older state
    /// after a newer one.
    private func observing<Value: Sendable, Shown: Equatable & Sendable>(
        check: @escaping @Sendable () throws -> Void = {},
        shown: @escaping @Sendable (Value) -> Shown,
        fetch: @escaping @Sendable (Database) throws -> Value
    ) -> AsyncThrowingStream<Value, Error> {
        let path = path
        let pool = pool
        let poll = options.externalChangesPollMillis
        let read: @Sendable (Database) throws -> (value: Value, seq: Int64) = { db in
            (try fetch(db), try LedgerMeta.seq(db))
        }
        let observation = ValueObservation.tracking(read)
        return AsyncThrowingStream { continuation in
            let last = LockedValue<(shown: Shown, seq: Int64)?>(nil)
            @Sendable func offer(_ read: (value: Value, seq: Int64)) {
                let now = shown(read.value)
                last.update { previous in
                    if let previous, previous.seq > read.seq { return }
                    let changed = previous?.shown != now
                    previous = (now, read.seq)
                    if changed { continuation.yield(read.value) }
                }
            }
            let task = Task {
                do {
                    try check()
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for try await value in observation.values(in: pool) { offer(value) }
                        }
                        if poll > 0 {
                            group.addTask {
                                while true {
                                    try await Task.sleep(nanoseconds: UInt64(poll) * 1_000_000)
                                    // Newer than what was last read, by either source: read again.
                                    guard try await pool.read(LedgerMeta.seq) > last.get()?.seq ?? -1 else { continue }
                                    offer(try await pool.read(read))
                                }
                            }
                        }
                        try await group.next()
                        group.cancelAll()
                    }
                    continuation.finish()
                } catch is CancellationError {
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
