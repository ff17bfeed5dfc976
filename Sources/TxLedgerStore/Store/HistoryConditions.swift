import Foundation
import GRDB
import TxLedgerCore

/// A `HistoryFilter` as SQL conditions on `RecordRow.source`, with their arguments.
/// `Specs/queries.md` states the rules; the indexes of migration v8 serve the common shapes.
struct HistoryConditions {
    private(set) var clauses: [String] = [RecordRow.isVisible]
    private(set) var arguments: StatementArguments = []

    /// - Parameters:
    ///   - byTab: whether the tab restricts the kind (counts per tab leave it out).
    ///   - chainNumbers: the numbers of the filter's chains in this file (`RecordStore.chainNumbers`).
    init(_ filter: HistoryFilter, byTab: Bool = true, chainNumbers: [Int64]) {
        // Few records are in progress: their partial index beats the kind and chain indexes,
        // which a unary `+` keeps SQLite from choosing (sqlite.org/optoverview.html).
        let unindexed = filter.stage == .inProgress ? "+" : ""
        if let vault = filter.vault {
            add("record.vault = (SELECT num FROM vault WHERE id = ?)", [vault])
        }
        if byTab, let kind = filter.tab.kind {
            add("\(unindexed)record.kind = ?", [RecordRow.kindCode(kind)])
        }
        if !filter.includeHidden {
            add("record.hidden = 0")
        }
        if !filter.includeReplaced {
            add("record.status <> \(RecordRow.replacedCode)")
        }
        if !filter.chains.isEmpty {
            // Numbers, not a subquery: SQLite then weighs the chain index as for constants.
            add("\(unindexed)record.chain IN (\(Self.marks(chainNumbers.count)))", StatementArguments(chainNumbers))
        }
        if !filter.tokens.isEmpty {
            let tokens = filter.tokens.map(Self.asciiUppercased).sorted()
            let list = Self.marks(tokens.count)
            let sides: [RecordField] = [
                .tokenSymbol, .tokenContract, .fromTokenSymbol, .fromTokenContract, .toTokenSymbol, .toTokenContract,
            ]
            add(
                "(" + sides.map { "upper(\(Self.text($0))) IN (\(list))" }.joined(separator: " OR ") + ")",
                StatementArguments(Array(repeating: tokens, count: sides.count).flatMap { $0 })
            )
        }
        if let since = filter.since {
            add("record.time >= ?", [since.millis])
        }
        if let until = filter.until {
            add("record.time < ?", [until.millis])
        }
        addStatuses(filter.statuses)
        switch filter.stage {
        case .all: break
        // Written as the partial index `record_in_progress` states its condition, so SQLite uses it.
        case .inProgress: add("record.status < 2 AND record.kind <> 2")
        case .completed: add("(record.status >= 2 OR record.kind = 2)")
        }
        if !filter.providers.isEmpty {
            let names = filter.providers.map(Self.asciiUppercased).sorted()
            add("upper(\(Self.text(.provider))) IN (\(Self.marks(names.count)))", StatementArguments(names))
        }
        if let search = Self.searchText(filter) { addSearch(search) }
    }

    /// Whether `filter` narrows by the columns `record_count` keeps alone (vault, kind, chain,
    /// status, hidden, erased): no time bound, token, provider nor search.
    static func onlyCountedColumns(_ filter: HistoryFilter) -> Bool {
        filter.since == nil && filter.until == nil && filter.tokens.isEmpty && filter.providers.isEmpty
            && searchText(filter) == nil
    }

    private static func searchText(_ filter: HistoryFilter) -> String? {
        guard let search = filter.search?.trimmingCharacters(in: .whitespacesAndNewlines), !search.isEmpty else {
            return nil
        }
        return search
    }

    mutating func add(_ clause: String, _ values: StatementArguments = []) {
        clauses.append(clause)
        arguments += values
    }

    /// These conditions as one.
    var condition: String { clauses.joined(separator: " AND ") }

    private mutating func addStatuses(_ statuses: Set<TransactionStatus>) {
        switch statuses {
        case Set(TransactionStatus.allCases): return
        case []: add("0")
        default:
            let codes = statuses.flatMap(RecordRow.statusCodes).sorted()
            add("record.status IN (\(Self.marks(codes.count)))", StatementArguments(codes))
        }
    }

    /// A hash or address prefix (an optional `0x` ignored), or a substring of the memo or note.
    private mutating func addSearch(_ text: String) {
        let bare = text.lowercased().hasPrefix("0x") ? String(text.dropFirst(2)) : text
        let contains = "%" + Self.escapedForLike(text) + "%"
        var alternatives = ["\(Self.text(.memo)) LIKE ? ESCAPE '\\'", "\(Self.text(.note)) LIKE ? ESCAPE '\\'"]
        var values: [String] = [contains, contains]
        if !bare.isEmpty {
            let prefix = Self.escapedForLike(bare) + "%"
            for field in [RecordField.txHash, .fromAddress, .toAddress] {
                alternatives += ["\(Self.text(field)) LIKE ? ESCAPE '\\'", "\(Self.text(field)) LIKE ? ESCAPE '\\'"]
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

    /// The text of `field` in a row's stored state (`RecordRow.textFunction`), a reference to
    /// the file's table of texts resolved.
    private static func text(_ field: RecordField) -> String {
        let stored = "record_text(record.state, \(field.number))"
        guard field.repeatsAcrossRecords else { return stored }
        return """
            (SELECT CASE WHEN typeof(x) = 'integer' THEN (SELECT value FROM frame_text WHERE num = x) ELSE x END \
            FROM (SELECT \(stored) AS x))
            """
    }

    private static func marks(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}
