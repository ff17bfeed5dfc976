import TxLedgerCore

/// The merge of one received record state into the stored one, with what it changed.
struct RecordMerge {
    /// The state to store, or `nil` if the stored one stays as it is.
    let result: RecordState?
    var report = MergeReport()

    /// - Parameters:
    ///   - local: the stored state (after the vault's watermark was applied), if any.
    ///   - incoming: the received state, already filtered by the watermark.
    ///   - listing: whether to list the conflicts (`MergeReport.conflicts`) or only count them.
    init(local: RecordState?, incoming: RecordState, watermark: Stamp?, listing: Bool = true) {
        guard let local else {
            result = incoming
            report = Self.new(incoming, watermark: watermark)
            return
        }
        let joined = local.joined(with: incoming)
        let updated = Self.updatedRegisters(from: local, to: joined)
        report.registersUpdated = updated
        report.registersUnchanged = Self.registerCount - updated
        Self.conflicts(local: local, incoming: incoming, listing: listing, into: &report)
        guard !joined.isIdentical(to: local) else {
            result = nil
            report.recordsUnchanged = 1
            return
        }
        result = joined
        switch (local.isVisible(clearedThrough: watermark), joined.isVisible(clearedThrough: watermark)) {
        case (false, true): report.recordsAdded = 1
        case (true, true): report.recordsChanged = 1
        case (true, false):
            // Only a clear mark hides a merged record (the watermark was applied before).
            report.recordsCleared = 1
            if let mark = joined.cleared {
                report.clears = [ClearReport(vault: joined.facts.value.vaultId, by: mark.stamp, records: 1)]
            }
        case (false, false): break
        }
    }

    /// What merging `incoming` where no state of its record is stored changes: every register,
    /// and a record added if the watermark leaves it visible.
    static func new(_ incoming: RecordState, watermark: Stamp?) -> MergeReport {
        var report = MergeReport()
        report.registersUpdated = registerCount
        if incoming.isVisible(clearedThrough: watermark) { report.recordsAdded = 1 }
        return report
    }

    /// facts, pending, terminal, inferred, lastCheckedAt, note, labels, hidden, and a newer
    /// version's registers counted as one.
    static let registerCount = 9

    private static func updatedRegisters(from a: RecordState, to b: RecordState) -> Int {
        [
            a.facts.stamp != b.facts.stamp, a.status.pending != b.status.pending,
            a.status.terminal != b.status.terminal, a.status.inferred != b.status.inferred,
            a.lastCheckedAt != b.lastCheckedAt, a.note != b.note, a.labels != b.labels, a.hidden != b.hidden,
            a.newerRegisters != b.newerRegisters,
        ]
        .filter { $0 }.count
    }

    /// Counts the registers both sides wrote with different values into `report`, and lists
    /// them if `listing`.
    private static func conflicts(
        local: RecordState,
        incoming: RecordState,
        listing: Bool,
        into report: inout MergeReport
    ) {
        func check<V: TieBreakable>(
            _ count: WritableKeyPath<ConflictCounts, Int>,
            _ l: Register<V>?,
            _ r: Register<V>?,
            _ describe: (V) -> String
        ) {
            guard let l, let r, l.value != r.value else { return }
            report.conflictCounts[keyPath: count] += 1
            guard listing else { return }
            let receivedWins = l.joined(with: r) == r
            let (kept, lost) = receivedWins ? (r.value, l.value) : (l.value, r.value)
            report.conflicts.append(
                MergeConflict(
                    id: local.id,
                    register: ConflictCounts.name(of: count),
                    kept: describe(kept),
                    discarded: describe(lost),
                    keptReceived: receivedWins
                )
            )
        }
        check(\.facts, local.facts, incoming.facts) { "recorded \(ISO8601.string(from: $0.timestamp))" }
        check(\.status, local.status.terminal, incoming.status.terminal) { $0.status.rawValue }
        check(\.inferred, local.status.inferred, incoming.status.inferred) { "failed: \($0.prefix(40))" }
        check(\.note, local.note, incoming.note) { $0.map { "\"\($0.prefix(40))\"" } ?? "none" }
        check(\.labels, local.labels, incoming.labels) { "[\($0.joined(separator: ", "))]" }
        check(\.hidden, local.hidden, incoming.hidden) { $0 ? "hidden" : "visible" }
    }
}
