import TxLedger

enum MergeReportText {
    /// Conflict lines shown before the rest is summarized (`--json` lists them all).
    static let shownConflicts = 10

    /// `added 3, changed 1, unchanged 10, cleared 0`, then the first conflicts and a count of the rest.
    static func render(_ report: MergeReport) -> String {
        var lines = ["added \(report.recordsAdded), changed \(report.recordsChanged), unchanged \(report.recordsUnchanged), cleared \(report.recordsCleared)"
                     + (report.changedAnything ? "" : " (nothing changed)")]
        if report.futureStamps > 0 {
            lines.append("\(report.futureStamps) stamps were far ahead of this clock: kept, but the clock was not moved")
        }
        for conflict in report.conflicts.prefix(shownConflicts) {
            lines.append("conflict \(conflict.id) \(conflict.register): kept \(conflict.kept) (\(conflict.keptReceived ? "theirs" : "ours")) over \(conflict.discarded)")
        }
        if report.conflicts.count > shownConflicts {
            let byRegister = Dictionary(grouping: report.conflicts, by: \.register).mapValues(\.count)
            let counts = byRegister.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            lines.append("... \(report.conflicts.count - shownConflicts) more conflicts (\(report.conflicts.count) in all: \(counts)); --json lists them all")
        }
        return lines.joined(separator: "\n")
    }
}
