import GRDB
import TxLedgerCore

/// Live reads: what `Ledger.observe` streams (GRDB's `ValueObservation`, and the file's change
/// counter for other processes' writes).
extension LedgerDatabase {
    /// `fetch`'s value now and after every write that changes what `shown` keeps of it: those
    /// through this ledger (GRDB's observation), and those of other processes, found by
    /// reading the file's change counter every `LedgerOptions.externalChangesPollMillis` and reading the
    /// value again when it is ahead of the last value read. A value read at an older change
    /// number than one already read is dropped, so the two sources never yield an older state
    /// after a newer one.
    package func observe<Value: Sendable, Shown: Equatable & Sendable>(
        check: @escaping @Sendable () throws -> Void = {},
        shown: @escaping @Sendable (Value) -> Shown,
        fetch: @escaping @Sendable (RecordStore) throws -> Value
    ) -> AsyncThrowingStream<Value, Error> {
        let (path, pool, tables) = (path, pool, frameTables)
        let poll = options.externalChangesPollMillis
        let read: @Sendable (Database) throws -> (value: Value, seq: Int64) = { db in
            (try fetch(RecordStore(db, path: path, tables: tables)), try LedgerMeta.seq(db))
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
                    continuation.finish(
                        throwing: LedgerError.storage(path: path, reason: Self.describe(error), underlying: error)
                    )
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
