import Foundation
import PropertyBased
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Every filter of issue #6, alone and combined, against the rules written again in memory
/// (`HistoryFixture.matches`), with keyset pages of random sizes and counts per tab; with the
/// records as rows, and with the settled ones in blocks.
struct HistoryFilterTests {
    private let test: TestLedger
    private let records: [TransactionRecord]

    init() async throws {
        test = try await TestLedger()
        records = try HistoryFixture.records()
        try await test.ledger.record(records)
    }

    /// Every page of `filter`, checking each page's size and cursor on the way.
    private func walk(_ filter: HistoryFilter, limit: Int) async throws -> [TransactionRecord] {
        let ledger = test.ledger
        var seen: [TransactionRecord] = []
        var cursor: PageCursor?
        repeat {
            let page = try await ledger.list(filter, limit: limit, after: cursor)
            #expect(page.items.count <= limit)
            #expect(page.hasMore == (page.items.count == limit && page.nextCursor != nil))
            seen += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return seen
    }

    private func expected(_ filter: HistoryFilter) -> [TransactionRecord] {
        records.filter { HistoryFixture.matches($0, filter) }.sorted { ($0.timestamp, $0.id) > ($1.timestamp, $1.id) }
    }

    private func expectListing(
        _ filter: HistoryFilter,
        limit: Int = 7,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let seen = try await walk(filter, limit: limit)
        #expect(seen.map(\.id) == expected(filter).map(\.id), "\(filter)", sourceLocation: sourceLocation)
    }

    @Test func theFixtureCoversEveryFilter() {
        #expect(Set(records.map(\.kind)) == Set(TransactionKind.allCases))
        #expect(Set(records.map(\.status)) == Set(TransactionStatus.allCases))
        #expect(records.contains { $0.hidden })
        #expect(
            Set(records.map(\.chain.id)).isSuperset(of: ["ethereum", "arbitrum", "bitcoin", "solana", "thorchain"])
        )
    }

    /// Moves the settled records into blocks (`BlockFixture`): every read sees them as before.
    private func inBlocks(_ frozen: Bool) async throws {
        if frozen { #expect(try await BlockFixture.moveSettledRecords(of: test.ledger).count > 40) }
    }

    @Test(arguments: [false, true]) func eachFilterAlone(inBlocks frozen: Bool) async throws {
        try await inBlocks(frozen)
        let ethereum = try Chain(parsing: "ethereum")
        let solana = try Chain(parsing: "solana")
        let some = records[41]
        let filters: [(String, HistoryFilter, Int)] = [
            ("everything", HistoryFilter(), 146),
            ("vault", HistoryFilter(vault: "savings"), 49),
            ("swaps tab", HistoryFilter(tab: .swaps), 42),
            ("sends tab", HistoryFilter(tab: .sends), 83),
            ("signatures tab", HistoryFilter(tab: .signatures), 21),
            ("one chain", HistoryFilter(chains: [solana]), 20),
            ("two chains", HistoryFilter(chains: [solana, ethereum]), 83),
            ("token either side of a swap", HistoryFilter(tokens: ["btc"]), 41),
            ("token by contract", HistoryFilter(tokens: ["0xA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48"]), 21),
            ("since", HistoryFilter(since: HistoryFixture.start.addingTimeInterval(6.5 * 3600 * 100)), 55),
            ("until, exclusive", HistoryFilter(until: HistoryFixture.start.addingTimeInterval(6.5 * 3600 * 12)), 11),
            (
                "since, inclusive",
                HistoryFilter(
                    since: HistoryFixture.start.addingTimeInterval(6.5 * 3600 * 12),
                    until: HistoryFixture.start.addingTimeInterval(6.5 * 3600 * 12 + 1)
                ), 1
            ),
            ("statuses", HistoryFilter(statuses: [.failed]), 37),
            ("no status", HistoryFilter(statuses: []), 0),
            ("provider in any case", HistoryFilter(providers: ["THORCHAIN"]), 11),
            ("hidden included", HistoryFilter(includeHidden: true), 160),
            ("whole hash", HistoryFilter(search: some.txHash!), 1),
            ("hash prefix, any case", HistoryFilter(search: "0X" + String(repeating: "0", count: 62)), 105),
            ("note text", HistoryFilter(search: "RENT"), 29),
            ("recipient prefix", HistoryFilter(search: "bc1qRECIPIENT1"), 9),
            ("memo text", HistoryFilter(search: "invoice"), 13),
            ("LIKE wildcards are literal", HistoryFilter(search: "50%"), 29),
            ("underscore is literal", HistoryFilter(search: "a_a"), 0),
            ("address prefix, 0x optional", HistoryFilter(search: String(repeating: "0", count: 36) + "CAFE"), 85),
        ]
        for (name, filter, count) in filters {
            let expected = expected(filter)
            #expect(expected.count == count, "fixture count for \(name)")
            try await expectListing(filter)
        }
    }

    @Test(arguments: [false, true]) func randomCombinationsMatchTheRules(inBlocks frozen: Bool) async throws {
        try await inBlocks(frozen)
        await propertyCheck(count: 150, input: Self.filterGenerator, Gen.int(in: 1...40)) { filter, limit in
            do {
                try await expectListing(filter, limit: limit)
                let counts = try await test.ledger.tabCounts(filter)
                for tab in HistoryTab.allCases {
                    var byTab = filter
                    byTab.tab = tab
                    #expect(
                        counts[tab] == records.filter { HistoryFixture.matches($0, byTab) }.count,
                        "\(tab) of \(filter)"
                    )
                }
            } catch {
                Issue.record(error)
            }
        }
    }

    @Test func nonASCIITokenSymbolsMatchThemselves() async throws {
        let test = try await TestLedger()
        let details = try SendDetails(
            toAddress: Fixture.evmAddress(1),
            amount: try DecimalAmount("1"),
            token: try Token(symbol: "Ünï")
        )
        let record = try TransactionRecord(
            facts: try TransactionFacts(
                vaultId: "v",
                chain: Fixture.ethereum,
                timestamp: Fixture.start,
                txHash: Fixture.evmHash(1),
                details: .send(details)
            )
        )
        try await test.ledger.record(record)
        #expect(try await test.ledger.list(HistoryFilter(tokens: ["Ünï"])).items.map(\.id) == [record.id])
        #expect(try await test.ledger.list(HistoryFilter(tokens: ["ÜNÏ"])).items.isEmpty)  // ASCII letters only fold
    }

    @Test func compactModeIsTheTopNAndWhetherMoreExist() async throws {
        let ledger = test.ledger
        let filter = HistoryFilter(vault: "main", tab: .swaps)
        let all = expected(filter)
        let top = try await ledger.list(filter, limit: 5)
        #expect(top.items.map(\.id) == all.prefix(5).map(\.id))
        #expect(top.hasMore)
        let whole = try await ledger.list(filter, limit: all.count)
        #expect(!whole.hasMore && whole.items.count == all.count)
    }

    @Test func inProgressAndCompletedSplitTheHistory() async throws {
        let filter = HistoryFilter(vault: "main", tab: .sends)
        let inProgress = try await walk(filter.inProgress, limit: 9)
        let completed = try await walk(filter.completed, limit: 9)
        #expect(inProgress.allSatisfy { !$0.status.isTerminal } && !inProgress.isEmpty)
        #expect(completed.allSatisfy(\.status.isTerminal) && !completed.isEmpty)
        // Signature requests are complete once signed, whatever their status.
        let overview = HistoryFilter(vault: "main")
        let signatures = records.filter { $0.kind == .signature && $0.vaultId == "main" && !$0.hidden }
        #expect(signatures.contains { !$0.status.isTerminal })
        #expect(try await walk(overview.inProgress, limit: 50).allSatisfy { $0.kind != .signature })
        #expect(Set(signatures.map(\.id)).isSubset(of: Set(try await walk(overview.completed, limit: 50).map(\.id))))
        #expect(Set((inProgress + completed).map(\.id)) == Set(expected(filter).map(\.id)))
        // Restricting an explicit choice keeps only what both allow.
        var failedOnly = filter
        failedOnly.statuses = [.failed]
        #expect(try await walk(failedOnly.inProgress, limit: 9).isEmpty)
        #expect(try await walk(failedOnly.completed, limit: 9).allSatisfy { $0.status == .failed })
    }

    @Test func pagesOfAFilterVisitEachRecordOnceWhileRecordsArrive() async throws {
        let test = try await TestLedger()
        let records = try HistoryFixture.records(count: 60)
        try await test.ledger.record(records)
        let filter = HistoryFilter(tab: .sends, statuses: [.confirmed, .failed, .pending, .broadcasted])
        var seen: [TransactionRecord] = []
        var page = try await test.ledger.list(filter, limit: 4)
        var arrival = 1000
        while true {
            seen += page.items
            guard let cursor = page.nextCursor else { break }
            // One newer and one older than the cursor arrive between pages.
            arrival += 2
            try await test.ledger.record(try HistoryFixture.record(arrival))
            try await test.ledger.record(
                try Fixture.minimalSend(hash: arrival, at: HistoryFixture.start.addingTimeInterval(-Double(arrival)))
            )
            page = try await test.ledger.list(filter, limit: 4, after: cursor)
        }
        #expect(Set(seen.map(\.id)).count == seen.count, "a record was listed twice")
        let before = records.filter { HistoryFixture.matches($0, filter) }
        #expect(Set(before.map(\.id)).isSubset(of: Set(seen.map(\.id))), "a record present from the start was skipped")
    }

    static let filterGenerator = Generator<HistoryFilter, Shrink.None<HistoryFilter>>(run: { rng in
        // Each filter is absent two times in three, so that combinations still match records.
        func subset<T>(_ items: [T]) -> [T] {
            Int.random(in: 0..<3, using: &rng) == 0 ? items.filter { _ in Bool.random(using: &rng) } : []
        }
        let chains = ["ethereum", "arbitrum", "bitcoin", "solana", "thorchain"].map { try! Chain(parsing: $0) }
        let span = 160 * 6.5 * 3600
        // Half the bounds fall exactly on a record's time, where inclusive and exclusive differ.
        let instant = { (rng: inout any SeededRandomNumberGenerator) -> Date in
            Bool.random(using: &rng)
                ? HistoryFixture.start.addingTimeInterval(Double(Int.random(in: 0..<160, using: &rng)) * 6.5 * 3600)
                : HistoryFixture.start.addingTimeInterval(Double.random(in: -3600...span, using: &rng).rounded())
        }
        let sample = try! HistoryFixture.record(Int.random(in: 0..<160, using: &rng))
        let searches: [String?] = [
            nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, "", " rent ", "coffee", "50%", "0x",
            "0X00000000000000000000000000000000000000CAFE",
            String(sample.txHash?.prefix(62) ?? "invoice"), "thor1", "Sign", "bc1qrecipient1", "invoice 1", "so1ana",
        ]
        var filter = HistoryFilter(
            vault: [nil, "main", "savings"].randomElement(using: &rng)!,
            tab: HistoryTab.allCases.randomElement(using: &rng)!,
            chains: Set(subset(chains)),
            tokens: Set(
                subset(["ETH", "usdc", "BTC", "rune", "thor.rune", "SOL", "0xaf88d065e77c8cc2239327c5edb3a432268e5831"])
            ),
            statuses: Int.random(in: 0..<3, using: &rng) > 0
                ? Set(TransactionStatus.allCases)
                : Set(TransactionStatus.allCases.filter { _ in Bool.random(using: &rng) }),
            providers: Set(subset(["thorchain", "MAYACHAIN", "1inch", "lifi", "KyberSwap"])),
            includeHidden: Bool.random(using: &rng),
            search: searches.randomElement(using: &rng)!
        )
        filter.stage = HistoryFilter.Stage.allCases.randomElement(using: &rng)!
        if Bool.random(using: &rng) { filter.since = instant(&rng) }
        if Bool.random(using: &rng) { filter.until = instant(&rng) }
        return filter
    })
}
