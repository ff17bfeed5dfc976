import ArgumentParser
import Foundation
import TxLedger

/// The history filters as flags, shared by `list` and `export-csv` (Specs/cli.md).
struct HistoryFilterOptions: ParsableArguments {
    @Option(help: "overview (default), swaps, sends or signatures.") var tab: String?
    @Option(
        name: .customLong("chain"),
        help: ArgumentHelp("Only these chains (repeat, or separate with commas).", valueName: "chain")
    )
    var chains: [String] = []
    @Option(
        name: .customLong("token"),
        help: ArgumentHelp("Only these token symbols or contracts, either side of a swap.", valueName: "token")
    )
    var tokens: [String] = []
    @Option(help: ArgumentHelp("From this time on (ISO 8601; a bare date is midnight UTC).", valueName: "time"))
    var since: String?
    @Option(
        help: ArgumentHelp("Before this time (ISO 8601; a bare date includes that whole UTC day).", valueName: "time")
    ) var until: String?
    @Option(
        name: .customLong("status"),
        help: ArgumentHelp("Only these statuses: broadcasted, pending, confirmed, failed.", valueName: "status")
    )
    var statuses: [String] = []
    @Option(name: .customLong("provider"), help: ArgumentHelp("Only swaps by these providers.", valueName: "provider"))
    var providers: [String] = []
    @Option(help: "A tx hash or address prefix, or text in the memo or note.") var search: String?
    @Flag(help: "Include hidden transactions.") var includeHidden = false
    @Flag(help: "Include transactions replaced by a speed-up, a cancel or their original.") var includeReplaced = false

    /// The filter these flags describe, for one vault or all of them.
    /// - Throws: `LedgerError.invalidInput` for an unknown tab, chain or status, or a malformed time.
    func filter(vault: String?) throws -> HistoryFilter {
        var filter = HistoryFilter(
            vault: vault,
            tab: try tab.map(HistoryTab.init(parsing:)) ?? .overview,
            includeHidden: includeHidden,
            includeReplaced: includeReplaced,
            search: search
        )
        filter.chains = Set(try Self.split(chains).map(Chain.init(parsing:)))
        filter.tokens = Set(Self.split(tokens))
        filter.providers = Set(Self.split(providers))
        if !statuses.isEmpty {
            filter.statuses = Set(try Self.split(statuses).map(TransactionStatus.init(parsing:)))
        }
        filter.since = try since.map { try ISO8601.date(from: $0, field: "since") }
        filter.until = try until.map(Self.end(of:))
        return filter
    }

    /// `--until 2025-12-31` means "up to the end of that day", so that a year reads naturally.
    private static func end(of text: String) throws -> Date {
        let date = try ISO8601.date(from: text, field: "until")
        return text.contains("T") ? date : date.addingTimeInterval(86_400)
    }

    private static func split(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
    }
}
