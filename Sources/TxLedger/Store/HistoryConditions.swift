import Foundation
import GRDB

/// A `HistoryFilter` as SQL conditions on `RecordRow.visibleSource`, with their arguments.
/// `Specs/queries.md` states the rules; the indexes of migration v3 serve the common shapes.
struct HistoryConditions {
    private(set) var clauses: [String] = [RecordRow.isVisible]
    private(set) var arguments: StatementArguments = []

    /// - Parameter byTab: whether the tab restricts the kind (counts per tab leave it out).
    init(_ filter: HistoryFilter, byTab: Bool = true) {
        // Few records are in progress: their partial index beats the kind and chain indexes,
        // which a unary `+` keeps SQLite from choosing (sqlite.org/optoverview.html).
        let unindexed = filter.stage == .inProgress ? "+" : ""
        if let vault = filter.vault {
            add("record.vault_id = ?", [vault])
        }
        if byTab, let kind = filter.tab.kind {
            add("\(unindexed)record.kind = ?", [kind.rawValue])
        }
        if !filter.includeHidden {
            add("COALESCE(record.hidden, 0) = 0")
        }
        if !filter.chains.isEmpty {
            let ids = filter.chains.map(\.id).sorted()
            add("\(unindexed)record.chain IN (\(Self.marks(ids.count)))", StatementArguments(ids))
        }
        if !filter.tokens.isEmpty {
            let tokens = filter.tokens.map(Self.asciiUppercased).sorted()
            let list = Self.marks(tokens.count)
            let sides = [
                "token_symbol", "token_contract", "from_token_symbol", "from_token_contract", "to_token_symbol",
                "to_token_contract",
            ]
            add(
                "(" + sides.map { "upper(record.\($0)) IN (\(list))" }.joined(separator: " OR ") + ")",
                StatementArguments(Array(repeating: tokens, count: sides.count).flatMap { $0 })
            )
        }
        if let since = filter.since {
            add("record.timestamp_ms >= ?", [since.millis])
        }
        if let until = filter.until {
            add("record.timestamp_ms < ?", [until.millis])
        }
        addStatuses(filter.statuses)
        switch filter.stage {
        case .all: break
        // Written as the partial index `record_in_progress` states its condition, so SQLite uses it.
        case .inProgress: add("record.terminal_status IS NULL AND record.kind <> 'signature'")
        case .completed: add("(record.terminal_status IS NOT NULL OR record.kind = 'signature')")
        }
        if !filter.providers.isEmpty {
            let names = filter.providers.map(Self.asciiUppercased).sorted()
            add("upper(record.provider) IN (\(Self.marks(names.count)))", StatementArguments(names))
        }
        if let search = filter.search?.trimmingCharacters(in: .whitespacesAndNewlines), !search.isEmpty {
            addSearch(search)
        }
    }

    mutating func add(_ clause: String, _ values: StatementArguments = []) {
        clauses.append(clause)
        arguments += values
    }

    /// `WHERE …` for these conditions.
    var whereClause: String { "WHERE " + clauses.joined(separator: " AND ") }

    private mutating func addStatuses(_ statuses: Set<TransactionStatus>) {
        switch statuses {
        case Set(TransactionStatus.allCases): return
        case []: add("0")
        default:
            let names = statuses.map(\.rawValue).sorted()
            add("record.status IN (\(Self.marks(names.count)))", StatementArguments(names))
        }
    }

    /// A hash or address prefix (an optional `0x` ignored), or a substring of the memo or note.
    private mutating func addSearch(_ text: String) {
        let bare = text.lowercased().hasPrefix("0x") ? String(text.dropFirst(2)) : text
        let contains = "%" + Self.escapedForLike(text) + "%"
        var alternatives = ["record.memo LIKE ? ESCAPE '\\'", "record.note LIKE ? ESCAPE '\\'"]
        var values: [String] = [contains, contains]
        if !bare.isEmpty {
            let prefix = Self.escapedForLike(bare) + "%"
            for column in ["tx_hash", "from_address", "to_address"] {
                alternatives += ["record.\(column) LIKE ? ESCAPE '\\'", "record.\(column) LIKE ? ESCAPE '\\'"]
                values += [prefix, "0x" + prefix]
            }
        }
        add("(" + alternatives.joined(separator: " OR ") + ")", StatementArguments(values))
    }

    /// `text` with LIKE's wildcards and the escape character escaped.
    private static func escapedForLike(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// What SQLite's `upper()` does: ASCII letters only, so that `Ü` still equals `Ü`.
    private static func asciiUppercased(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { ("a"..."z").contains($0) ? Unicode.Scalar($0.value - 32)! : $0 }
            )
        )
    }

    private static func marks(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}
