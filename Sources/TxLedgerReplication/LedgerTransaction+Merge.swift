import TxLedgerCore
import TxLedgerMembership
import TxLedgerStore

extension LedgerTransaction {
    /// Records merged per batch (one query reads their stored states), and the bytes of the
    /// frames they were read from past which a batch is merged with fewer: batches of 256
    /// records of 1 MiB messages held gigabytes, in the merge and in the batches read ahead of
    /// it (`ProducerThread`). 512 rather than 256: the threads of a new device's first sync hand
    /// each other half as many batches, and its wall time went from 0.63 of its processor time
    /// to 0.61 (CHANGELOG).
    package static let mergeBatch = BatchLimit(count: 512, bytes: 4 << 20)

    /// Merges one change set, given as its header and a function that calls its argument with
    /// each record in turn (so records can stream from a bundle), with the frame it came in when
    /// a store may keep that frame (`ReceivedFrame`) and the bytes of the frame it was read from
    /// (0 for a record already in memory), inside the caller's transaction.
    /// Under a `membership`, the registers its cuts refuse are set aside, not merged.
    /// - Parameter folder: for a change set read from a shared folder, what that changes
    ///   (`FolderRead`).
    /// - Returns: for a full change set read from a folder that held everything this replica
    ///   held of the vault (or everything it had not changed after the folder's point), what it
    ///   proved (`FullCoverage`, without the membership); else `nil`.
    @discardableResult
    mutating func merge(
        _ header: ChangeSetHeader,
        membership: Membership?,
        folder: FolderRead? = nil,
        records: ((consuming RecordState, consuming ReceivedFrame?, _ bytes: Int) throws -> Void) throws -> Void,
        report: inout MergeReport
    ) throws -> FullCoverage? {
        let vault = try TextField.identifier.validate(header.vaultId, field: "vault")
        // A vault heard of is a vault held, even before any of its records: a new device that
        // imported an empty delta can export what it holds (nothing) and so be sent the rest.
        let number = try store.ensureVault(vault)
        // A full change set into a vault that holds nothing writes its settled records as
        // blocks (schema.md, "Record blocks").
        var load: BlockLoad?
        if header.isFull, try store.isEmpty(vault: number) { load = try BlockLoad(vault: number, store: store) }
        defer { if load != nil { BlockLoad.restoreCache(store) } }

        // The watermark joins as a maximum; a newer one is applied to the stored rows first.
        // A stamp is too far ahead of the wall clock as the merge began (read once, not for
        // each of a million records' stamps).
        let now = stamps.wallClock().millis
        var latestAcceptable: Stamp?
        func observe(_ stamp: Stamp) {
            if stamps.isTooFarAhead(stamp, wallMillis: now) {
                report.futureStamps += 1
            } else if latestAcceptable.map({ stamp > $0 }) ?? true {
                latestAcceptable = stamp
            }
        }
        let cuts = membership.map(cuts(of:)) ?? WriteCuts()
        try store.purgeCleared(before: now - RecordStore.restorableMillis)
        let heldWatermark = try store.watermark(vault).stamp
        let theirWatermark = header.clearedThrough.flatMap { cuts.counts($0) ? $0 : nil }
        if let theirs = theirWatermark {
            observe(theirs)
            let cleared = try store.clear(vault, through: theirs, now: now)
            if cleared > 0 {
                report.recordsCleared += cleared
                report.count(ClearReport(vault: vault, by: theirs, records: cleared))
            }
        }
        let watermark = try store.cachedWatermark(vault)
        // Only a sync folder asks whether a full change set covers this replica: an import or a
        // merge pays neither the counts nor the comparisons.
        let asksCoverage = header.isFull && folder != nil
        let held = asksCoverage ? try store.countStored(vault: vault, changedAfter: Int64.min) : 0
        let point = folder?.points[vault]
        var coverage =
            asksCoverage
            ? FullCoverage.Check(
                held: held,
                point: point,
                heldUpToPoint: try point.map { held - (try store.countStored(vault: vault, changedAfter: $0)) } ?? 0,
                watermarkHeld: heldWatermark.map { held in theirWatermark.map { $0 >= held } ?? false } ?? true,
                watermarkMoved: watermark != heldWatermark
            ) : nil

        // Merged records that may settle a replacement, settled once every batch is in.
        var unsettled: [TransactionID] = []
        // Records are merged in batches: the stored rows of a batch are read in one query, and
        // a worker thread decodes them, joins and encodes what changed (`BatchMerge`) while this
        // thread writes the batch before; what changes is written in id order.
        do {
            var batch: [RecordState] = []
            // Each one's id, read as it came in (reading it from the batch copied each state).
            var batchIDs: [TransactionID] = []
            // Each record's received frame, kept while the record is as it was received.
            var frames: [ReceivedFrame?] = []
            // The bytes of the frames the batch's records were read from.
            var batchBytes = 0
            let worker = FrameWorker(label: "txledger.merge-worker", encoder: try store.lendEncoder())
            defer {
                worker.waitUntilIdle()
                store.endLending()
            }
            var inFlight: (ids: Set<TransactionID>, job: FrameWorker.Job<BatchMerge>)?
            func write(_ job: FrameWorker.Job<BatchMerge>) throws {
                let merged = try job.result()
                try store.addEntries(merged.added)
                var loaded: [RecordRow.Values] = []
                loaded.reserveCapacity(load == nil ? 0 : merged.writes.count)
                // Each write read where it lies: a copy of each made the writer copy a whole
                // `Write`, a received state's size, to use the row in it.
                for index in merged.writes.indices {
                    switch merged.writes[index] {
                    case let .row(row) where load != nil, let .new(row) where load != nil: loaded.append(row)
                    case let .row(row): try store.save(row)
                    case let .new(row): try store.saveNew(row)
                    case let .registers(row, counted): try store.saveRegisters(row, counted: counted)
                    case let .unnumbered(state, frame) where load != nil:
                        loaded.append(try store.row(state, frame: frame))
                    case let .unnumbered(state, frame): try store.save(state, frame: frame)
                    }
                }
                try load?.write(loaded, to: store)
                for changed in merged.changedLinks where try mightSettle(changed.link) { unsettled.append(changed.id) }
                try store.noteCleared(merged.newlyCleared, now: now)
                report.add(merged.report)
                coverage?.add(merged)
                worker.dispose(merged)
            }
            func mergeBatch() throws {
                let ids = Set(batchIDs)
                // A record whose state was purged here keeps the mark it was cleared with.
                for (id, through) in try store.tombstones(vault: vault, ids: Array(ids)) {
                    for index in batch.indices where batchIDs[index] == id {
                        batch[index].cleared = batch[index].cleared.joined(
                            with: ClearMark(through: through, stamp: through)
                        )
                        frames[index] = nil
                    }
                }
                // A batch that holds an id of the one being worked out reads its row once written.
                if let pending = inFlight, !pending.ids.isDisjoint(with: ids) {
                    inFlight = nil
                    try write(pending.job)
                }
                let named = Array(ids)
                var stored = try store.fetchStoredRows(ids: load?.mayBeStored(named) ?? named, rowsOnly: load != nil)
                let (tables, path) = (try store.frameTables(), store.path)
                let numbers = try store.rowNumbers(vault: vault)
                let comparing = coverage.map { _ in point ?? Int64.min }
                let listedBefore = report.conflicts.count
                let job = worker.start {
                    [received = batch, receivedIDs = batchIDs, receivedFrames = frames, stored] encoder in
                    try BatchMerge(
                        received,
                        ids: receivedIDs,
                        frames: receivedFrames,
                        stored: stored,
                        tables: tables,
                        path: path,
                        vault: vault,
                        numbers: numbers,
                        comparing: comparing,
                        listedBefore: listedBefore,
                        encoder: &encoder
                    )
                }
                // The job holds the batch alone, so that the worker frees it once merged, not
                // this thread, which writes the batch before meanwhile and is the one a merge of
                // new records waits for (freeing was 1.4% of its samples in a profile of `import`
                // of 100k into 100k, 0.2% since).
                stored = []
                batch.removeAll(keepingCapacity: true)
                batchIDs.removeAll(keepingCapacity: true)
                frames.removeAll(keepingCapacity: true)
                batchBytes = 0
                if let pending = inFlight { try write(pending.job) }
                inFlight = (ids, job)
            }
            // What a cut leaves of a record, or the record as received (moved, not copied), with
            // its frame while the watermark takes nothing from it.
            func take(_ counted: consuming RecordState, frame: consuming ReceivedFrame?, bytes: Int) throws {
                var unchanged = true
                counted.forEachStamp { stamp in
                    observe(stamp)
                    if let watermark, stamp <= watermark { unchanged = false }
                }
                guard let incoming = counted.filtered(clearedThrough: watermark) else {
                    report.recordsUnchanged += 1
                    return
                }
                batchIDs.append(incoming.id)
                batch.append(consume incoming)
                // Moved into the batch (a conditional expression copied each frame, its bytes and
                // tables retained, then released with the parameter).
                if unchanged { frames.append(consume frame) } else { frames.append(nil) }
                batchBytes += bytes
                if Self.mergeBatch.isReached(count: batch.count, bytes: batchBytes) { try mergeBatch() }
            }
            try records { received, frame, bytes in
                coverage?.see(received.id, time: received.facts.value.timestamp.millis)
                if let membership, !cuts.isEmpty,
                    try setAside(received, cuts: cuts, membership: membership, now: now, report: &report)
                {
                    guard let kept = received.filtered(by: cuts) else { return }
                    try take(kept, frame: nil, bytes: bytes)
                } else {
                    try take(received, frame: frame, bytes: bytes)
                }
            }
            if !batch.isEmpty { try mergeBatch() }
            if let pending = inFlight { try write(pending.job) }
        }
        // After the worker: joining a record named twice encodes with the store's own encoder.
        try load?.finish(store)
        if let membership {
            for index in report.clears.indices where report.clears[index].vault == vault {
                report.clears[index].device = membership.member(writingAs: report.clears[index].replica)?.name
            }
        }
        // The clock: remote stamps advance it, unless they are too far ahead.
        if let latestAcceptable { _ = stamps.observe(latestAcceptable) }
        // Replacements settle as local writes, stamped after what was received.
        for id in unsettled {
            if let state = try store.fetch(id: id) { try settleReplacements(of: state) }
        }

        // Knowledge: what this replica now holds of the origin and of the replicas it knows,
        // what the origin holds of this replica, and whether this file was restored or copied.
        let me = stamps.clock.replica
        let renamed = try KnowledgeMerge(
            header: header,
            store: store,
            me: me,
            made: store.changeSeq - 1,
            now: stamps.wallClock().millis,
            bridgesGaps: folder != nil
        ).apply(&report)
        if renamed != me { stamps.adopt(renamed) }
        // The last change number this replica used: the merge's own, if it changed anything.
        return coverage?.result(through: store.changed ? store.changeSeq : store.changeSeq - 1)
    }
}
