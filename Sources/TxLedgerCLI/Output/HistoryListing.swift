import Foundation
import TxLedger

/// `list` for people: counts per tab, the in-progress section, then completed records under
/// day headers (local time zone), one aligned table across all sections.
struct HistoryListing {
    /// Whether words are coloured: only on a terminal, and never with `NO_COLOR` set.
    enum Style {
        case plain, colour

        static func forStandardOutput(environment: [String: String] = ProcessInfo.processInfo.environment) -> Style {
            isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
                ? .colour : .plain
        }
    }

    let filter: HistoryFilter
    let completed: Page
    let style: Style
    let now: Date
    /// Set on the first page only.
    var counts: HistoryTabCounts?
    var inProgress: Page?

    init(filter: HistoryFilter, completed: Page, style: Style, now: Date) {
        self.filter = filter
        self.completed = completed
        self.style = style
        self.now = now
    }

    var text: String {
        let inProgressItems = inProgress?.items ?? []
        if inProgressItems.isEmpty && completed.items.isEmpty {
            return (inProgress == nil ? "No more transactions.\n" : HistoryText.emptyState(filter) + "\n")
        }
        var blocks: [(title: String, rows: [Row])] = []
        if !inProgressItems.isEmpty {
            blocks.append(
                (
                    "In progress",
                    inProgressItems.map { row($0, trailing: HistoryText.inProgress(since: $0.timestamp, now: now)) }
                )
            )
        }
        for section in HistorySections(now: now).byDay(completed.items) {
            let title = section.subtitle.map { "\(section.title) · \($0)" } ?? section.title
            blocks.append((title, section.records.map { row($0, trailing: nil) }))
        }
        let widths = (0..<Row.columns).map { column in
            blocks.flatMap(\.rows).map { $0.cells[column].text.count }.max() ?? 0
        }
        var out =
            counts.map { counts in
                HistoryTab.allCases.map { "\($0.title) \(counts[$0])" }.joined(separator: " · ") + "\n\n"
            } ?? ""
        out += blocks.map { block in
            block.title + "\n" + block.rows.map { "  " + $0.render(widths: widths, style: style) + "\n" }.joined()
        }.joined(separator: "\n")
        if inProgress?.hasMore == true {
            out += "\nmore in progress than --limit shows\n"
        }
        if let next = completed.nextCursor {
            out += "\nmore: --cursor \(next.token)\n"
        }
        return out
    }

    /// The local clock time, `HH:mm`, from whole milliseconds (no `Double` on the way to text).
    private static func clockTime(_ date: Date) -> String {
        let t = CivilTime(date, in: .current)
        return (t.hour < 10 ? "0" : "") + "\(t.hour):" + (t.minute < 10 ? "0" : "") + "\(t.minute)"
    }

    /// A speed-up or cancel says what it replaces (the replaced one is folded under it), and a
    /// replaced record, listed with `--include-replaced`, what replaced it.
    private static func link(_ r: TransactionRecord) -> String {
        if let hash = r.replacedBy { return ", replaced by \(HistoryText.truncated(hash))" }
        return r.facts.extras["replaces"].map { ", replaces \(HistoryText.truncated($0))" } ?? ""
    }

    private func row(_ r: TransactionRecord, trailing: String?) -> Row {
        Row(
            cells: [
                Cell(Self.clockTime(r.timestamp)),
                Cell(HistoryText.kind(r.kind), colour: Row.colour(of: r.kind)),
                Cell(HistoryText.status(of: r), colour: Row.colour(of: r.status)),
                Cell(r.chain.id),
                Cell(r.txHash.map { HistoryText.truncated($0) } ?? HistoryText.appLabel(r.app)),
                Cell(RecordDetail.summary(r) + Self.link(r)),
                Cell(r.fiatValue.map { "$\($0)" } ?? ""),
            ],
            trailing: trailing
        )
    }

    private struct Cell {
        let text: String
        var colour: String?

        init(_ text: String, colour: String? = nil) {
            self.text = text
            self.colour = colour
        }
    }

    private struct Row {
        static let columns = 7
        let cells: [Cell]
        let trailing: String?

        /// Cells padded to the column widths; colour codes wrap the words, never the padding.
        func render(widths: [Int], style: Style) -> String {
            var parts = zip(cells, widths).map { cell, width in
                let padding = String(repeating: " ", count: width - cell.text.count)
                guard style == .colour, let colour = cell.colour else { return cell.text + padding }
                return "\u{1B}[\(colour)m\(cell.text)\u{1B}[0m" + padding
            }
            if let trailing { parts.append(trailing) }
            var line = parts.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }

        /// ANSI colours of the reference cards: blue Send, green Swap, green Successful, red Error.
        static func colour(of kind: TransactionKind) -> String {
            switch kind {
            case .send: "34"
            case .swap: "32"
            case .signature: "35"
            }
        }

        static func colour(of status: TransactionStatus) -> String {
            switch status {
            case .broadcasted, .pending: "33"
            case .confirmed: "32"
            case .failed: "31"
            }
        }
    }
}
