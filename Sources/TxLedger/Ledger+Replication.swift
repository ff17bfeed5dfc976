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
        let origin = replicaID
        return try await read { store in
            let since = try peer.map { try store.acknowledged(vault, by: $0) } ?? 0
            return ChangeSet(
                vaultId: vault, origin: origin, since: since, through: try LedgerMeta.seq(store.db),
                knowledge: try store.held(vault), clearedThrough: try store.watermark(vault).stamp,
                records: try store.fetchStored(vault: vault, changedAfter: since))
        }
    }

    /// Merges change sets into this replica, all in one transaction: afterwards this replica
    /// holds the join of its state and theirs, or, on an error, exactly what it held before.
    /// Merging the same change set again changes nothing.
    /// - Throws: `LedgerError.invalidInput` if a change set carries a record of another vault.
    @discardableResult
    public func merge(_ changeSets: [ChangeSet]) async throws -> MergeReport {
        let me = replicaID
        let report = try await write { store, stamps in
            var report = MergeReport()
            for changes in changeSets {
                try Self.merge(changes, into: store, stamps: &stamps, me: me, report: &report)
            }
            return report
        }
        if report.futureStamps > 0 {
            options.logger.warning("merged stamps far ahead of this clock; they did not advance it", metadata: ["count": "\(report.futureStamps)"])
        }
        return report
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
            return try store.clear(vault, through: stamps.next(after: current))
        }
    }

    private static func merge(_ changes: ChangeSet, into store: RecordStore, stamps: inout StampSource, me: ReplicaID,
                              report: inout MergeReport) throws {
        let vault = try TextField.identifier.validate(changes.vaultId, field: "vault")
        for record in changes.records where record.facts.value.vaultId != vault {
            throw LedgerError.invalidInput(field: "change set", reason: "a change set for vault '\(vault)' carries record \(record.id) of another vault")
        }

        // The clock: remote stamps advance it, unless they are too far ahead.
        let received = changes.records.flatMap(\.stamps) + (changes.clearedThrough.map { [$0] } ?? [])
        let (ahead, acceptable) = (received.filter(stamps.isTooFarAhead), received.filter { !stamps.isTooFarAhead($0) })
        report.futureStamps += ahead.count
        if let latest = acceptable.max() { _ = stamps.observe(latest) }

        // The watermark joins as a maximum; a newer one is applied to the stored rows first.
        if let theirs = changes.clearedThrough {
            report.recordsCleared += try store.clear(vault, through: theirs)
        }
        let watermark = try store.cachedWatermark(vault)

        for received in changes.records {
            guard let incoming = received.filtered(clearedThrough: watermark) else {
                report.recordsUnchanged += 1
                continue
            }
            let local = try store.fetchStored(id: incoming.id)
            if let local, local.facts.value.vaultId != vault {
                throw LedgerError.invalidInput(field: "change set", reason: "record \(incoming.id) belongs to vault '\(local.facts.value.vaultId)' here")
            }
            let merge = RecordMerge(local: local, incoming: incoming, watermark: watermark)
            if let result = merge.result { try store.save(result) }
            report.add(merge.report)
        }

        // Knowledge: what this replica now holds of the origin (and, from a full export, of
        // every replica the origin holds), and what the origin holds of this replica.
        guard changes.origin != me else { return }
        let heldBefore = try store.held(vault)[changes.origin] ?? 0
        try store.learn(vault, peer: changes.origin, held: changes.since <= heldBefore ? changes.through : nil,
                        acknowledged: changes.knowledge[me])
        if changes.isFull {
            for (replica, seq) in changes.knowledge where replica != me {
                try store.learn(vault, peer: replica, held: seq, acknowledged: nil)
            }
        }
    }
}

extension RecordState {
    /// Every stamp the state carries.
    var stamps: [Stamp] {
        [facts.stamp, status.pending, status.terminal?.stamp, note?.stamp, labels?.stamp, hidden?.stamp].compactMap { $0 }
    }
}
