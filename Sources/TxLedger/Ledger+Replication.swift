import GRDB

extension Ledger {
    /// The vaults this ledger holds.
    public func vaults() async throws -> [String] {
        try await read { store in try store.vaults() }
    }

    /// What `peer` does not have yet of `vault`: the rows changed since the peer last told this
    /// replica what it holds (in its own change sets), or the whole vault when `peer` is `nil`
    /// or has never said.
    public func changes(vault: String, forPeer peer: ReplicaID? = nil) async throws -> ChangeSet {
        try await read { store in
            let header = try Self.header(
                vault,
                since: try peer.map { try store.acknowledged(vault, by: $0) } ?? 0,
                store: store
            )
            return ChangeSet(header: header, records: try store.fetchStored(vault: vault, changedAfter: header.since))
        }
    }

    /// The header of a change set of `vault` from this replica, covering its changes after
    /// `since`: with the epochs from the one holding `since` (or, for a full change set, the one
    /// holding `through`), and the epoch of each knowledge entry. When more epochs than a
    /// reader accepts have passed since `since` (more than 65536 processes wrote), the change
    /// set is a full one instead: the caller reads its records after `header.since`.
    static func header(_ vault: String, since: Int64, store: RecordStore) throws -> ChangeSetHeader {
        let through = try LedgerMeta.seq(store.db)
        let held = try store.held(vault)
        var since = since
        var lineage = try store.epochs(from: since > 0 ? since : through)
        if lineage.count > ChangeSetHeader.maxEpochs {
            since = 0
            lineage = try store.epochs(from: through)
        }
        return ChangeSetHeader(
            vaultId: vault,
            origin: try LedgerMeta.replicaID(store.db),
            since: since,
            through: through,
            knowledge: held.mapValues(\.seq),
            knowledgeEpochs: held.compactMapValues(\.epoch),
            lineage: lineage,
            clearedThrough: try store.watermark(vault).stamp
        )
    }

    /// Merges change sets into this replica, all in one transaction: afterwards this replica
    /// holds the join of its state and theirs, or, on an error, exactly what it held before.
    /// Merging the same change set again changes nothing.
    /// - Throws: `LedgerError.invalidInput` if a change set carries a record of another vault.
    @discardableResult
    public func merge(_ changeSets: [ChangeSet]) async throws -> MergeReport {
        let report = try await write { store, stamps in
            var report = MergeReport()
            for changes in changeSets {
                for record in changes.records where record.facts.value.vaultId != changes.vaultId {
                    throw LedgerError.invalidInput(
                        field: "change set",
                        reason:
                            "a change set for vault '\(changes.vaultId)' carries record \(record.id) of another vault"
                    )
                }
                try Self.merge(
                    changes.header,
                    records: changes.records.forEach,
                    into: store,
                    stamps: &stamps,
                    report: &report
                )
            }
            return report
        }
        warnAboutFutureStamps(report)
        return report
    }

    func warnAboutFutureStamps(_ report: MergeReport) {
        if report.futureStamps > 0 {
            options.logger.warning(
                "merged stamps far ahead of this clock; they did not advance it",
                metadata: ["count": "\(report.futureStamps)"]
            )
        }
    }

    @discardableResult
    public func merge(_ changes: ChangeSet) async throws -> MergeReport {
        try await merge([changes])
    }

    /// Clears a vault's history on every replica it reaches: everything recorded or edited up to
    /// now is erased; what any replica records later is kept.
    /// - Returns: how many records were cleared here.
    @discardableResult
    public func clearHistory(vault: String) async throws -> Int {
        try TextField.identifier.validate(vault, field: "vault")
        return try await write { store, stamps in
            let current = try store.cachedWatermark(vault)
            return try store.clear(vault, through: try stamps.next(after: current))
        }
    }

    /// Records merged per batch (one query reads their stored states).
    static let mergeBatchSize = 256

    /// Merges one change set, given as its header and a function that calls its argument with
    /// each record in turn (so records can stream from a bundle), inside the caller's transaction.
    static func merge(
        _ header: ChangeSetHeader,
        records: ((RecordState) throws -> Void) throws -> Void,
        into store: RecordStore,
        stamps: inout StampSource,
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
        func mergeBatch() throws {
            var stored = try store.fetchStored(ids: batch.map(\.id))
            var merged: [TransactionID: RecordState] = [:]
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
                    merged[incoming.id] = result
                    stored[incoming.id] = result  // the same id again in this batch merges into this
                }
                report.add(merge.report)
            }
            for id in merged.keys.sorted() { try store.save(merged[id]!) }
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

extension RecordState {
    /// Every stamp the state carries, a newer version's registers' included.
    var stamps: [Stamp] {
        [facts.stamp, status.pending, status.terminal?.stamp, note?.stamp, labels?.stamp, hidden?.stamp].compactMap {
            $0
        }
            + newerRegisters.values.map(\.stamp)
    }
}
