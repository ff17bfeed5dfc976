import Foundation
import TxLedgerCore

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

    /// Records the JSON `data` holds: one record, an array of records, or a page as `list`
    /// prints it (`{"items": [...], "nextCursor": ...}`), in the shape `TransactionRecord`'s
    /// `Codable` conformance writes; all of them in one transaction, or none. A large list is
    /// decoded a thousand records at a time on threads of their own while the ones before are
    /// written (Specs/cli.md, `record --json`).
    /// - Throws: `LedgerError.invalidInput` naming the record and the field that is wrong.
    public func record(json data: Data) async throws -> RecordSummary {
        guard let batches = RecordBatches.start(data) else {
            return try await record(try RecordJSONInput.decode(data))
        }
        options.logger.debug("record --json: a list, decoded a batch at a time while the batches before are written")
        do {
            return try await record(batches: batches)
        } catch is RecordBatches.DecodingFailure {
            // Nothing was written; the whole document decoded at once says what is wrong.
            options.logger.debug("record --json: a batch did not decode; decoding the whole input")
            return try await record(try RecordJSONInput.decode(data))
        }
    }

    /// Records the batches that `batches` makes, in one transaction: all of them or, on an
    /// error (the producer's included), none. They are taken on the write transaction's queue,
    /// never on Swift's cooperative threads, and the producer is stopped there before this
    /// returns: the next records are decoded while these are written.
    func record(batches: ProducerThread<TransactionRecord>) async throws -> RecordSummary {
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
