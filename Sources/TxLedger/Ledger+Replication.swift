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
            let header = try store.changeSetHeader(
                vault,
                since: try peer.map { try store.acknowledged(vault, by: $0) } ?? 0
            )
            return ChangeSet(header: header, records: try store.fetchStored(vault: vault, changedAfter: header.since))
        }
    }

    /// Merges change sets into this replica, all in one transaction: afterwards this replica
    /// holds the join of its state and theirs, or, on an error, exactly what it held before.
    /// Merging the same change set again changes nothing.
    /// - Throws: `LedgerError.invalidInput` if a change set carries a record of another vault.
    @discardableResult
    public func merge(_ changeSets: [ChangeSet]) async throws -> MergeReport {
        let report = try await write { transaction in
            var report = MergeReport()
            for changes in changeSets {
                for record in changes.records where record.facts.value.vaultId != changes.vaultId {
                    throw LedgerError.invalidInput(
                        field: "change set",
                        reason:
                            "a change set for vault '\(changes.vaultId)' carries record \(record.id) of another vault"
                    )
                }
                try transaction.merge(changes.header, records: changes.records.forEach, report: &report)
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

    /// Merges every vault of another replica's ledger file into this one, in one transaction,
    /// as merging the full change set of each would: the other file is opened read-only, never
    /// modified, and read as its records are merged rather than all at once. The file is
    /// untrusted input, checked and capped as a bundle is (Specs/threat-model.md, "Another
    /// replica's ledger file"): a hostile one ends in an error naming it, and this ledger is
    /// left as it was.
    /// - Throws: `LedgerError.invalidInput` if `path` is this ledger itself, under any name;
    ///   `LedgerError.unreadableDatabase` naming `path` if it is not a regular file, not a
    ///   ledger of this version, damaged, or over a limit; `LedgerError.newerSchema`.
    @discardableResult
    public func merge(ledgerAt path: String) async throws -> MergeReport {
        let own = self.path
        let source = try await DedicatedThread.run { try OtherLedgerFile(path: path, notBeing: own) }
        let report = try await write { transaction in
            // One read of the other file (one snapshot of it), on a thread of its own: its
            // records are decoded there while the ones before them merge here.
            let batchSize = LedgerTransaction.mergeBatchSize
            let items = ProducerThread<SourceItem>(name: "txledger.merge", batchSize: batchSize) { yield in
                try source.read { store in
                    for vault in try store.vaults() {
                        try yield(.changes(try store.changeSetHeader(vault, since: 0)))
                        try store.forEachStored(vault: vault, changedAfter: 0) { try yield(.record($0)) }
                    }
                }
            }
            defer { items.stop() }
            var report = MergeReport()
            var batch: ArraySlice<SourceItem> = []
            func nextItem() throws -> SourceItem? {
                if batch.isEmpty, let next = try items.next() { batch = next[...] }
                return batch.popFirst()
            }
            var item = try nextItem()
            while case let .changes(header)? = item {
                try transaction.merge(
                    header,
                    records: { merge in
                        item = try nextItem()
                        while case let .record(record)? = item {
                            try merge(record)
                            item = try nextItem()
                        }
                    },
                    report: &report
                )
            }
            return report
        }
        warnAboutFutureStamps(report)
        return report
    }

    /// Clears a vault's history on every replica it reaches: everything recorded or edited up to
    /// now is erased; what any replica records later is kept.
    /// - Returns: how many records were cleared here.
    @discardableResult
    public func clearHistory(vault: String) async throws -> Int {
        try TextField.identifier.validate(vault, field: "vault")
        return try await write { transaction in
            let current = try transaction.store.cachedWatermark(vault)
            return try transaction.store.clear(vault, through: try transaction.stamps.next(after: current))
        }
    }
}

/// What another ledger file yields to a merge of it, in order: each vault's change set header,
/// then that vault's records.
private enum SourceItem {
    case changes(ChangeSetHeader)
    case record(RecordState)
}
