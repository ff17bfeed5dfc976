extension LedgerTransaction {
    /// Records merged per batch (one query reads their stored states).
    static let mergeBatchSize = 256

    /// Merges one change set, given as its header and a function that calls its argument with
    /// each record in turn (so records can stream from a bundle), inside the caller's transaction.
    mutating func merge(
        _ header: ChangeSetHeader,
        records: ((RecordState) throws -> Void) throws -> Void,
        report: inout MergeReport
    ) throws {
        let vault = try TextField.identifier.validate(header.vaultId, field: "vault")
        // A vault heard of is a vault held, even before any of its records: a new device that
        // imported an empty delta can export what it holds (nothing) and so be sent the rest.
        try store.ensureVault(vault)

        // The watermark joins as a maximum; a newer one is applied to the stored rows first.
        var latestAcceptable: Stamp?
        func observe(_ stamp: Stamp) {
            if stamps.isTooFarAhead(stamp) {
                report.futureStamps += 1
            } else if latestAcceptable.map({ stamp > $0 }) ?? true {
                latestAcceptable = stamp
            }
        }
        if let theirs = header.clearedThrough {
            observe(theirs)
            report.recordsCleared += try store.clear(vault, through: theirs)
        }
        let watermark = try store.cachedWatermark(vault)

        // Records are merged in batches: the stored states of a batch are read in one query,
        // and what changes is written in id order (neighbouring keys, fewer pages touched).
        var batch: [RecordState] = []
        // Merged records that may settle a replacement, settled once every batch is in.
        var unsettled: [TransactionID] = []
        func mergeBatch() throws {
            var stored = try store.fetchStored(ids: batch.map(\.id))
            var merged: Set<TransactionID> = []
            for incoming in batch {
                let local = stored[incoming.id]
                if let local, local.facts.value.vaultId != vault {
                    throw LedgerError.invalidInput(
                        field: "change set",
                        reason: "record \(incoming.id) belongs to vault '\(local.facts.value.vaultId)' here"
                    )
                }
                let merge = RecordMerge(local: local, incoming: incoming, watermark: watermark)
                if let result = merge.result {
                    // A status or a link this merge changed may settle a replacement.
                    if local?.status != result.status || local?.replacedID != result.replacedID,
                        try mightSettle(result)
                    {
                        unsettled.append(result.id)
                    }
                    merged.insert(incoming.id)
                    stored[incoming.id] = result  // the same id again in this batch merges into this
                }
                report.add(merge.report)
            }
            for id in merged.sorted() { try store.save(stored[id]!) }
            batch.removeAll(keepingCapacity: true)
        }
        try records { received in
            received.stamps.forEach(observe)
            guard let incoming = received.filtered(clearedThrough: watermark) else {
                report.recordsUnchanged += 1
                return
            }
            batch.append(incoming)
            if batch.count == Self.mergeBatchSize { try mergeBatch() }
        }
        try mergeBatch()
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
            now: stamps.wallClock().millis
        ).apply(&report)
        if renamed != me { stamps.adopt(renamed) }
    }
}
