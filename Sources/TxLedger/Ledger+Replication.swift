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
    /// modified, and read as its records are merged rather than all at once.
    /// - Throws: `LedgerError.invalidInput` if `path` is this ledger itself; what opening it
    ///   throws (`LedgerError.unreadableDatabase`, ...).
    @discardableResult
    public func merge(ledgerAt path: String) async throws -> MergeReport {
        let source = try await Ledger.open(path: path, options: .init(readOnly: true))
        guard source.replicaID != replicaID || source.path != self.path else {
            throw LedgerError.invalidInput(field: "merge", reason: "'\(path)' is this ledger itself")
        }
        let (sourcePath, sourceTables, sourcePool) = (source.path, source.frameTables, source.pool)
        let report = try await write { transaction in
            // A read of the other file's pool, from this file's writer queue: one snapshot of it.
            try sourcePool.read { db in
                let store = RecordStore(db, path: sourcePath, tables: sourceTables)
                var report = MergeReport()
                for vault in try store.vaults() {
                    try transaction.merge(
                        try store.changeSetHeader(vault, since: 0),
                        records: { body in try store.forEachStored(vault: vault, changedAfter: 0, body) },
                        report: &report
                    )
                }
                return report
            }
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
