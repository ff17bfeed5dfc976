import TxLedger

enum MergeReportText {
    /// `added 3, changed 1, unchanged 10, cleared 0` then one line per conflict.
    static func render(_ report: MergeReport) -> String {
        var lines = ["added \(report.recordsAdded), changed \(report.recordsChanged), unchanged \(report.recordsUnchanged), cleared \(report.recordsCleared)"
                     + (report.changedAnything ? "" : " (nothing changed)")]
        if report.futureStamps > 0 {
            lines.append("\(report.futureStamps) stamps were far ahead of this clock: kept, but the clock was not moved")
        }
        for conflict in report.conflicts {
            lines.append("conflict \(conflict.id) \(conflict.register): kept \(conflict.kept) (\(conflict.keptReceived ? "theirs" : "ours")) over \(conflict.discarded)")
        }
        return lines.joined(separator: "\n")
    }
}
