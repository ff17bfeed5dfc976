import TxLedgerCore

extension LedgerTransaction {
    /// A call with more records than this records its leading new ones in slices of this many
    /// (`recordNew`).
    static let recordingSlice = 128

    /// Records `records` in turn, counting what happened into `summary`. Those of a large call
    /// that are simply new are written while a worker makes the next ones (`recordNew`); each
    /// record is recorded as `record(_:)` records it.
    package mutating func record(_ records: [TransactionRecord], into summary: inout RecordSummary) throws {
        let next = records.count > Self.recordingSlice ? try recordNew(records, into: &summary) : 0
        for record in records[next...] {
            switch try self.record(record).outcome {
            case .recorded: summary.recorded += 1
            case let .alreadyRecorded(advanced):
                summary.alreadyRecorded += 1
                if advanced { summary.statusAdvanced += 1 }
            }
        }
    }

    /// Records the leading records of `records` that are new, in slices of `recordingSlice`:
    /// this thread stamps a slice's records in order and hands them to a worker, which makes
    /// their states and stored frames with an encoder the store lent it (`FrameWorker`), while
    /// this thread writes the slice before (its new entries, then its rows). It stops at the
    /// first record that is not simply new: one whose id is stored (an insert that conflicts
    /// writes nothing), or one that may settle a replacement. The slice worked out after it is
    /// dropped: its stamps go unused and the entries its encoder numbered are never written.
    /// - Returns: the index of the first record not recorded (`records.count` if none is left).
    private mutating func recordNew(_ records: [TransactionRecord], into summary: inout RecordSummary) throws -> Int {
        let worker = FrameWorker(label: "txledger.record-worker", encoder: try store.lendEncoder())
        defer {
            worker.waitUntilIdle()
            store.endLending()
        }
        func start(_ slice: Range<Int>) throws -> FrameWorker.Job<NewRecords> {
            var stamped: [(record: TransactionRecord, stamp: Stamp)] = []
            stamped.reserveCapacity(slice.count)
            for record in records[slice] {
                // After the vault's clear watermark, so a new record is never born erased.
                stamped.append((record, try stamps.next(after: try store.cachedWatermark(record.vaultId))))
            }
            return worker.start { [stamped] encoder in
                let states = stamped.map { RecordState(recording: $0.record, stamp: $0.stamp) }
                let frames = states.map { encoder.frame($0) }
                return NewRecords(states: states, frames: frames, added: encoder.takeAddedEntries())
            }
        }
        var slice = 0..<min(Self.recordingSlice, records.count)
        var job = try start(slice)
        while true {
            let next = slice.upperBound..<min(slice.upperBound + Self.recordingSlice, records.count)
            let nextJob = next.isEmpty ? nil : try start(next)
            let made = try job.result()
            try store.addEntries(made.added)
            for (offset, state) in made.states.enumerated() {
                guard try !mightSettle(state), try store.insertIfAbsent(state, frame: made.frames[offset]) else {
                    return slice.lowerBound + offset
                }
                summary.recorded += 1
            }
            worker.dispose(made)
            guard let nextJob else { return records.count }
            (slice, job) = (next, nextJob)
        }
    }

    /// The states and stored frames of a slice of new records, and the entries their frames
    /// added to the file's tables, in the order the worker's encoder numbered them.
    private struct NewRecords: Sendable {
        let states: [RecordState]
        let frames: [[UInt8]]
        let added: FrameEncoder.AddedEntries
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
