import ArgumentParser
import Foundation
import TxLedger

struct ListCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List transactions, newest first.",
        discussion: "--json prints {\"items\": [...], \"nextCursor\": null|string}; pass nextCursor to --cursor for the next page.")

    @ParentCommand var root: TxLedgerCommand
    @Option(help: "Only this vault (default: every vault).") var vault: String?
    @Option(help: "Page size, any positive count.") var limit: Int = 50
    @Option(help: "nextCursor of the previous page.") var cursor: String?
    @Flag(help: "Include hidden transactions.") var includeHidden = false
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be a positive count") }
    }

    func run(on ledger: Ledger) async throws {
        let page = try await ledger.list(vault: vault, includeHidden: includeHidden, limit: limit,
                                         after: try cursor.map(PageCursor.init(token:)))
        if json {
            print(try JSONOutput.string(ListJSON(items: page.items, nextCursor: page.nextCursor?.token)))
        } else {
            print(RecordTable.render(page.items), terminator: "")
            if let next = page.nextCursor { print("more: --cursor \(next.token)") }
        }
    }
}

private struct ListJSON: Encodable {
    let items: [TransactionRecord]
    let nextCursor: String?

    enum CodingKeys: CodingKey { case items, nextCursor }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(items, forKey: .items)
        try c.encode(nextCursor, forKey: .nextCursor) // null on the last page, not omitted
    }
}
