import TxLedger

enum MergeReportText {
    /// Conflict lines shown before the rest is counted (`--json` lists the first
    /// `MergeConflict.maxListed`).
    static let shownConflicts = 10

    /// `added 3, changed 1, unchanged 10, cleared 0`, then the first conflicts and a count of the rest.
    static func render(_ report: MergeReport) -> String {
        var lines = [
            "added \(report.recordsAdded), changed \(report.recordsChanged), unchanged \(report.recordsUnchanged), cleared \(report.recordsCleared)"
                + (report.changedAnything ? "" : " (nothing changed)")
        ]
        lines += ClearText.lines(report.clears)
        if report.writesSetAside > 0 {
            lines.append(
                "set aside \(report.writesSetAside) write\(report.writesSetAside == 1 ? "" : "s") of devices removed from the vault "
                    + "(txledger devices list shows them)"
            )
        }
        if report.futureStamps > 0 {
            lines.append(
                "\(report.futureStamps) stamps were far ahead of this clock: kept, but the clock was not moved"
            )
        }
        for conflict in report.conflicts.prefix(shownConflicts) {
            lines.append(
                "conflict \(conflict.id) \(conflict.register): kept \(OutsideText.escaped(conflict.kept)) (\(conflict.keptReceived ? "theirs" : "ours")) over \(OutsideText.escaped(conflict.discarded))"
            )
        }
        let total = report.conflictCounts.total
        if total > shownConflicts {
            let counts = report.conflictCounts.byRegister.map { "\($0.register) \($0.count)" }.joined(separator: ", ")
            let listed = min(total, MergeConflict.maxListed)
            lines.append(
                "... \(total - shownConflicts) more conflicts (\(total) in all: \(counts)); --json lists "
                    + (listed == total ? "them all" : "the first \(listed)")
            )
        }
        return lines.joined(separator: "\n")
    }

    /// What a person must know and act on, for stderr (also in `--json`'s report): a delta that
    /// started after changes this ledger lacks, a new replica id.
    static func warnings(_ report: MergeReport) -> [String] {
        report.gaps.map { gap in
            "this bundle holds replica \(gap.origin)'s changes to vault \(OutsideText.escaped(gap.vault)) after #\(gap.since), but this ledger has its changes "
                + "only through #\(gap.heldThrough): what came before is missing here. On that device run `txledger export --vault \(OutsideText.escaped(gap.vault)) --full` "
                + "and import it here, or export from here and import it there: its next export then holds the rest"
        }
            + peersDropped(report.peersDropped)
            + (report.newReplicaID.map { id in
                [
                    "this ledger's file was restored from a backup or copied from another device, so it took the new replica id \(id); "
                        + "nothing was lost, and its next exports hold everything"
                ]
            } ?? [])
    }

    /// A line per vault whose peers were dropped beyond the limits of knowledge.
    static func peersDropped(_ dropped: [String: Int]) -> [String] {
        dropped.sorted { $0.key < $1.key }.map { vault, count in
            "dropped \(count) peer\(count == 1 ? "" : "s") of vault \(OutsideText.escaped(vault)) beyond the limits of knowledge "
                + "(at most \(Ledger.maxPeersPerVault) per vault, none silent for a year): nothing is lost, "
                + "a dropped peer that syncs again is sent what it lacks"
        }
    }
}
