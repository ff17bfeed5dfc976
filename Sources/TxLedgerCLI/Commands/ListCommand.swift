import ArgumentParser
import Foundation
import TxLedger

struct ListCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List transactions: in progress first, then by day, newest first.",
        discussion: """
            For people: counts per tab, an "In progress" section, then completed transactions under \
            day headers in the local time zone; --cursor continues the completed list. \
            --json prints {"items": [...], "nextCursor": null|string}, every status newest first; \
            pass nextCursor to --cursor for the next page.
            """
    )

    @ParentCommand var root: TxLedgerCommand
    @Option(help: "Only this vault (default: every vault).") var vault: String?
    @OptionGroup var filters: HistoryFilterOptions
    @Option(help: "Page size, any positive count.") var limit: Int = 50
    @Option(help: "nextCursor of the previous page.") var cursor: String?
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be a positive count") }
    }

    func run(on ledger: Ledger) async throws {
        let filter = try filters.filter(vault: vault)
        let cursor = try cursor.map(PageCursor.init(token:))
        if json {
            let page = try await ledger.list(filter, limit: limit, after: cursor)
            print(try JSONOutput.string(ListJSON(items: page.items, nextCursor: page.nextCursor?.token)))
            return
        }
        let completed = try await ledger.list(filter.completed, limit: limit, after: cursor)
        var listing = HistoryListing(filter: filter, completed: completed, style: .forStandardOutput(), now: Date())
        if cursor == nil {
            listing.counts = try await ledger.tabCounts(filter)
            listing.inProgress = try await ledger.list(filter.inProgress, limit: limit)
        }
        print(listing.text, terminator: "")
    }
}

private struct ListJSON: Encodable {
    let items: [TransactionRecord]
    let nextCursor: String?

    enum CodingKeys: CodingKey { case items, nextCursor }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(items, forKey: .items)
        try c.encode(nextCursor, forKey: .nextCursor)  // null on the last page, not omitted
    }
}
