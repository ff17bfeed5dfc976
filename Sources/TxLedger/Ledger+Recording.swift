/// What `record` did with one record.
public enum RecordOutcome: Hashable, Sendable {
    /// A new record was written.
    case recorded
    /// A record with this id existed; its facts were kept. `statusAdvanced` tells whether the
    /// input's status was higher in the lattice and was applied as a status update.
    case alreadyRecorded(statusAdvanced: Bool)
}

/// Totals of a batch `record`.
public struct RecordSummary: Hashable, Sendable {
    public var recorded = 0
    public var alreadyRecorded = 0
    public var statusAdvanced = 0
}

extension Ledger {
    /// Records one transaction. Idempotent: recording a transaction that exists (same id: same
    /// vault, chain and hash) keeps the one record and its facts; only a higher status in the
    /// input is applied, as a status update would be. Annotations of the input are used only
    /// when the record is new.
    /// - Returns: the record as stored afterwards, and what happened.
    @discardableResult
    public func record(_ record: TransactionRecord) async throws -> (record: TransactionRecord, outcome: RecordOutcome)
    {
        try await write { transaction in
            let (state, outcome) = try transaction.record(record)
            return (state.record, outcome)
        }
    }

    /// Records many transactions in one transaction: all of them or, on an error, none.
    @discardableResult
    public func record(_ records: [TransactionRecord]) async throws -> RecordSummary {
        try await write { transaction in
            var summary = RecordSummary()
            try transaction.record(records, into: &summary)
            return summary
        }
    }

    /// Records the batches that `batches` makes, in one transaction: all of them or, on an
    /// error (the producer's included), none. They are taken on the write transaction's queue,
    /// never on Swift's cooperative threads, and the producer is stopped there before this
    /// returns: `txledger record --json` decodes the next records while these are written.
    package func record(batches: ProducerThread<TransactionRecord>) async throws -> RecordSummary {
        do {
            return try await write { transaction in
                defer { batches.stop() }
                var summary = RecordSummary()
                while let batch = try batches.next() { try transaction.record(batch, into: &summary) }
                return summary
            }
        } catch {
            // The transaction may have failed before it took a batch: stop the producer anyway.
            try await DedicatedThread.run { batches.stop() }
            throw error
        }
    }
}
