import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// `list` for people and scripts, its filter flags, and `export-csv`, through the real binary.
struct CLIHistoryTests {
    let test: TestLedger
    let cli: CLI
    let records: [TransactionRecord]

    init() async throws {
        test = try await TestLedger()
        records = try HistoryFixture.records(count: 60)
        try await test.ledger.record(records)
        cli = CLI(db: test.ledger.path)
    }

    private func ids(_ arguments: [String]) async throws -> [String] {
        let result = try await cli.run(["list", "--json", "--limit", "1000"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        return (object["items"] as! [[String: Any]]).map { $0["id"] as! String }
    }

    private func expected(_ filter: HistoryFilter) -> [String] {
        records.filter { HistoryFixture.matches($0, filter) }.sorted { ($0.timestamp, $0.id) > ($1.timestamp, $1.id) }
            .map(\.id.rawValue)
    }

    private func day(_ n: Int) -> Date { HistoryFixture.start.addingTimeInterval(Double(n) * 86_400) }

    @Test func everyFilterFlagNarrowsLikeTheLibrary() async throws {
        let cases: [([String], HistoryFilter)] = [
            (["--tab", "swaps"], HistoryFilter(tab: .swaps)),
            (["--vault", "savings", "--tab", "sends"], HistoryFilter(vault: "savings", tab: .sends)),
            (
                ["--chain", "solana", "--chain", "ETH"],
                HistoryFilter(chains: [try Chain(parsing: "solana"), try Chain(parsing: "ethereum")])
            ),
            (
                ["--chain", "bitcoin,arbitrum"],
                HistoryFilter(chains: [try Chain(parsing: "bitcoin"), try Chain(parsing: "arbitrum")])
            ),
            (["--token", "btc"], HistoryFilter(tokens: ["btc"])),
            (["--status", "pending,broadcasted"], HistoryFilter(statuses: [.pending, .broadcasted])),
            (["--provider", "THORCHAIN", "--provider", "1inch"], HistoryFilter(providers: ["THORCHAIN", "1inch"])),
            (["--search", "rent"], HistoryFilter(search: "rent")),
            (["--include-hidden"], HistoryFilter(includeHidden: true)),
            (
                ["--since", "2025-07-05", "--until", "2025-07-09"],
                HistoryFilter(since: day(4).addingTimeInterval(-43_200), until: day(9).addingTimeInterval(-43_200))
            ),
            (
                ["--since", "2025-07-05T12:00:00Z", "--until", "2025-07-09T00:00:00+02:00"],
                HistoryFilter(since: day(4), until: day(7).addingTimeInterval(43_200 - 7_200))
            ),
            (
                ["--tab", "sends", "--chain", "ethereum", "--status", "failed", "--include-hidden"],
                HistoryFilter(
                    tab: .sends,
                    chains: [try Chain(parsing: "ethereum")],
                    statuses: [.failed],
                    includeHidden: true
                )
            ),
        ]
        for (flags, filter) in cases {
            let expected = expected(filter)
            #expect(!expected.isEmpty, "\(flags) should match something in the fixture")
            #expect(try await ids(flags) == expected, "\(flags)")
        }
    }

    @Test func badFilterFlagsAreRefusedWithExitCode65() async throws {
        for flags in [
            ["--tab", "receives"], ["--chain", "nochain"], ["--status", "done"], ["--since", "yesterday"],
            ["--cursor", "xyz"],
        ] {
            let result = try await cli.run(["list"] + flags)
            #expect(result.status == 65, "\(flags): \(result.stderr)")
            #expect(result.stderrLines.count == 1 && result.stdout.isEmpty)
        }
    }

    @Test func listForPeopleShowsCountsInProgressFirstThenDays() async throws {
        try await cli.run([
            "record", "send", "--vault", "main", "--chain", "ethereum", "--hash", Fixture.evmHash(0xF00),
            "--to", Fixture.evmAddress(2), "--amount", "1", "--token", "ETH",
        ])
        try await cli.run(["status", Fixture.evmHash(0xF00), "confirmed"])
        let result = try await cli.run(["list", "--vault", "main", "--limit", "500"], environment: ["TZ": "UTC"])
        #expect(result.status == 0)
        let out = result.stdout
        #expect(!out.contains("\u{1B}["), "no colour when stdout is not a terminal")
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let filter = HistoryFilter(vault: "main")
        let main = records.filter { HistoryFixture.matches($0, filter) }
        #expect(
            lines[0]
                == "Overview \(main.count + 1) · Swaps \(main.filter { $0.kind == .swap }.count) · Sends \(main.filter { $0.kind == .send }.count + 1) · Signatures \(main.filter { $0.kind == .signature }.count)"
        )
        #expect(lines[2] == "In progress")
        let inProgress = main.filter { !$0.status.isTerminal && $0.kind != .signature }.count
        #expect(
            lines[3..<3 + inProgress].allSatisfy {
                $0.hasPrefix("  ") && ($0.contains("Pending") || $0.contains("Broadcasted"))
                    && $0.contains("In progress… ")
            }
        )
        // Then the completed records under day headers, newest first: today's confirmed send first.
        #expect(lines[3 + inProgress] == "")
        #expect(lines[4 + inProgress].hasPrefix("Today · "))
        #expect(
            lines[5 + inProgress].contains("Send") && lines[5 + inProgress].contains("Successful")
                && lines[5 + inProgress].contains("0x0000…0f00")
        )
        // Older days are titled by their date, in the user's locale (the CLI's is the test's).
        let oldest = try #require(main.filter(\.status.isTerminal).min { $0.timestamp < $1.timestamp })
        let title = HistorySections(timeZone: TimeZone(identifier: "UTC")!, now: Date()).byDay([oldest])[0].title
        #expect(title.contains("2025") && lines.last { !$0.hasPrefix("  ") && !$0.isEmpty } == title)
        #expect(!out.contains("more:"))
        let rows = lines.filter { $0.hasPrefix("  ") }
        #expect(rows.count == main.count + 1)
        #expect(rows.filter { $0.contains("Error") }.count == main.filter { $0.status == .failed }.count)
    }

    @Test func pagesForPeopleContinueWithTheCursor() async throws {
        let first = try await cli.run(["list", "--vault", "main", "--limit", "5"])
        let cursor = try #require(
            first.stdout.split(separator: "\n").last { $0.hasPrefix("more: --cursor ") }?.dropFirst(
                "more: --cursor ".count
            )
        )
        #expect(first.stdout.contains("more in progress than --limit shows"))
        let second = try await cli.run(["list", "--vault", "main", "--limit", "5", "--cursor", String(cursor)])
        #expect(second.status == 0)
        #expect(!second.stdout.contains("In progress") && !second.stdout.contains("Overview"))
        let firstRows = Set(first.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") })
        let secondRows = second.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }
        #expect(secondRows.count == 5 && firstRows.isDisjoint(with: secondRows))
    }

    @Test func emptyListsSayWhy() async throws {
        #expect(
            try await cli.run(["list", "--tab", "signatures", "--vault", "nobody"]).stdout
                == "No signature requests yet.\n"
        )
        #expect(
            try await cli.run(["list", "--search", "no such text"]).stdout == "No transactions match these filters.\n"
        )
    }

    @Test func exportCSVWritesTheFilteredHistory() async throws {
        let folder = try TemporaryDirectory()
        let out = folder.path("main.csv")
        let result = try await cli.run([
            "export-csv", "--vault", "main", "--out", out, "--tab", "sends", "--status", "confirmed",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let filter = HistoryFilter(vault: "main", tab: .sends, statuses: [.confirmed])
        let count = expected(filter).count
        #expect(result.stdout == "wrote \(count) transactions to \(out)\n")
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\r\n")
        #expect(lines.count == count + 1)
        #expect(lines.dropFirst().allSatisfy { $0.contains(",main,send,confirmed,") })

        let missing = try await cli.run(["export-csv", "--vault", "main", "--out", folder.path("no/such/dir.csv")])
        #expect(missing.status == 74 && missing.stderrLines.count == 1 && missing.stderr.contains("cannot write"))
        #expect(try await cli.run(["export-csv", "--out", out]).status == 64)
    }
}
