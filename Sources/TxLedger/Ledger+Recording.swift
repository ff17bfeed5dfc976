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
        try await write { store, stamps in
            let (state, outcome) = try Self.record(record, store: store, stamps: &stamps)
            return (state.record, outcome)
        }
    }

    /// Records many transactions in one transaction: all of them or, on an error, none.
    @discardableResult
    public func record(_ records: [TransactionRecord]) async throws -> RecordSummary {
        try await write { store, stamps in
            var summary = RecordSummary()
            for record in records {
                switch try Self.record(record, store: store, stamps: &stamps).outcome {
                case .recorded: summary.recorded += 1
                case let .alreadyRecorded(advanced):
                    summary.alreadyRecorded += 1
                    if advanced { summary.statusAdvanced += 1 }
                }
            }
            return summary
        }
    }

    private static func record(
        _ record: TransactionRecord,
        store: RecordStore,
        stamps: inout StampSource
    ) throws -> (state: RecordState, outcome: RecordOutcome) {
        // Stamped after the vault's clear watermark, so a new record is never born erased.
        let watermark = try store.cachedWatermark(record.vaultId)
        let new = RecordState(recording: record, stamp: try stamps.next(after: watermark))
        if try store.insertIfAbsent(new) {
            return (new, .recorded)
        }
        guard var existing = try store.fetchStored(id: record.id) else {
            preconditionFailure("insert conflicted on an id that cannot be read back")
        }
        guard existing.isVisible(clearedThrough: watermark) else {
            // Erased by a clear, with later registers kept: recorded anew, joining what survived.
            let joined = existing.joined(with: new)
            try store.save(joined)
            return (joined, .recorded)
        }
        var statusAdvanced = false
        var checkedLater = false
        let floor = try writeFloor(existing, [existing.status.pending, existing.status.terminal?.stamp], store)
        if case let .success(status) = existing.status.applying(
            record.statusUpdate,
            stamp: try stamps.next(after: floor)
        ) {
            existing.status = status
            statusAdvanced = true
        }
        if let checked = record.lastCheckedAt, checked > existing.lastCheckedAt ?? .distantPast {
            existing.lastCheckedAt = checked
            checkedLater = true
        }
        if statusAdvanced || checkedLater { try store.updateRegisters(existing) }
        return (existing, .alreadyRecorded(statusAdvanced: statusAdvanced))
    }
}
