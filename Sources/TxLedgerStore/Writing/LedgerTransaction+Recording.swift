import TxLedgerCore

extension LedgerTransaction {
    /// Records `records` in turn, counting what happened into `summary`.
    package mutating func record(_ records: [TransactionRecord], into summary: inout RecordSummary) throws {
        for record in records {
            switch try self.record(record).outcome {
            case .recorded: summary.recorded += 1
            case let .alreadyRecorded(advanced):
                summary.alreadyRecorded += 1
                if advanced { summary.statusAdvanced += 1 }
            }
        }
    }

    /// Records one transaction (Ledger.record(_:)): new, it is stored with a fresh stamp;
    /// already there, its status may advance and its `lastCheckedAt` move forward.
    package mutating func record(_ record: TransactionRecord) throws -> (state: RecordState, outcome: RecordOutcome) {
        // Stamped after the vault's clear watermark, so a new record is never born erased.
        let watermark = try store.cachedWatermark(record.vaultId)
        let new = RecordState(recording: record, stamp: try stamps.next(after: watermark))
        if try store.insertIfAbsent(new) {
            if try mightSettle(new) { try settleReplacements(of: new) }
            return (new, .recorded)
        }
        guard var existing = try store.fetchStored(id: record.id) else {
            preconditionFailure("insert conflicted on an id that cannot be read back")
        }
        guard existing.isVisible(clearedThrough: watermark) else {
            // Cleared: recorded anew, joining what it holds, with facts stamped after the ones
            // the clear had seen (from a clock far ahead, they may be later than `new`'s).
            let floor = [watermark, existing.facts.stamp, existing.cleared?.through].compactMap { $0 }.max()
            let joined = existing.joined(with: RecordState(recording: record, stamp: try stamps.next(after: floor)))
            try store.save(joined)
            if try mightSettle(joined) { try settleReplacements(of: joined) }
            return (joined, .recorded)
        }
        var statusAdvanced = false
        var checkedLater = false
        let stamp = try stamp(writing: existing, replacing: existing.status.stamps)
        if case let .success(status) = existing.status.applying(record.statusUpdate, stamp: stamp) {
            existing.status = status
            statusAdvanced = true
        }
        if let checked = record.lastCheckedAt, checked > existing.lastCheckedAt ?? .distantPast {
            existing.lastCheckedAt = checked
            checkedLater = true
        }
        if statusAdvanced || checkedLater { try store.updateRegisters(existing) }
        if statusAdvanced { try settleReplacements(of: existing) }
        return (existing, .alreadyRecorded(statusAdvanced: statusAdvanced))
    }
}
