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
            for record in records {
                switch try transaction.record(record).outcome {
                case .recorded: summary.recorded += 1
                case let .alreadyRecorded(advanced):
                    summary.alreadyRecorded += 1
                    if advanced { summary.statusAdvanced += 1 }
                }
            }
            return summary
        }
    }
}
