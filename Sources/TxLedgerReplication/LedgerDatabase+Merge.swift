import Logging
import TxLedgerCore
import TxLedgerStore

/// Change sets merged into the store: in memory, or read from another replica's ledger file
/// (Specs/crdt.md, "Merging"; Specs/threat-model.md, "Another replica's ledger file").
extension LedgerDatabase {
    /// Merges change sets in one transaction.
    package func merge(_ changeSets: [ChangeSet]) async throws -> MergeReport {
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
                try transaction.merge(
                    changes.header,
                    membership: try transaction.membership(changes.vaultId),
                    records: { merge in for record in changes.records { try merge(record, nil, 0) } },
                    report: &report
                )
            }
            return report
        }
        warnAboutFutureStamps(report)
        return report
    }

    /// Merges every vault of another replica's ledger file, in one transaction (into a ledger
    /// that holds no record, without the WAL: `writeIntoEmpty`).
    package func merge(ledgerAt path: String) async throws -> MergeReport {
        let (own, busy) = (self.path, options.busyTimeoutMillis)
        let source = try await DedicatedThread.run {
            try OtherLedgerFile(path: path, notBeing: own, busyTimeoutMillis: busy)
        }
        let report = try await writeIntoEmpty { transaction in
            // One read of the other file (one snapshot of it), on a thread of its own: its
            // records are decoded there while the ones before them merge here.
            let items = ProducerThread<SourceItem>(name: "txledger.merge", limit: LedgerTransaction.mergeBatch) {
                yield in
                try source.read { store in
                    for vault in try store.vaults() {
                        try yield(.changes(try store.changeSetHeader(vault, since: 0)), 0)
                        try store.forEachStored(vault: vault, changedAfter: 0) { state, bytes in
                            try yield(.record(state, bytes: bytes), bytes)
                        }
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
                // Unsigned, as any ledger file: only cuts apply (threat-model.md).
                try transaction.merge(
                    header,
                    membership: try transaction.membership(header.vaultId),
                    records: { merge in
                        item = try nextItem()
                        while case let .record(record, bytes)? = item {
                            try merge(record, nil, bytes)
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

    /// Logs the stamps a merge found far ahead of this clock.
    package func warnAboutFutureStamps(_ report: MergeReport) {
        if report.futureStamps > 0 {
            options.logger.warning(
                "merged stamps far ahead of this clock; they did not advance it",
                metadata: ["count": "\(report.futureStamps)"]
            )
        }
    }
}

/// What another ledger file yields to a merge of it, in order: each vault's change set header,
/// then that vault's records.
private enum SourceItem {
    case changes(ChangeSetHeader)
    /// A record, and the bytes of its stored frame.
    case record(RecordState, bytes: Int)
}
