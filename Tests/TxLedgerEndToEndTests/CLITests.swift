import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Runs the real binary. Every bad input must give one line on stderr, the documented exit
/// code, and leave the ledger exactly as it was.
struct CLITests {
    let directory: TemporaryDirectory
    let cli: CLI

    init() throws {
        directory = try TemporaryDirectory()
        cli = CLI(db: directory.path("ledger.sqlite"))
    }

    private let hash = Fixture.evmHash(0xabc)

    @discardableResult
    private func recordSend(_ extra: [String] = []) async throws -> CLI.Result {
        try await cli.run(
            [
                "record", "send", "--vault", "main", "--chain", "ethereum", "--hash", hash,
                "--from", Fixture.evmAddress(1), "--to", Fixture.evmAddress(2), "--amount",
                "1234567890.123456789012345678",
                "--token", "ETH", "--fiat", "3.50", "--at", "2025-07-01T12:00:00Z", "--memo", "hi",
            ] + extra
        )
    }

    private func listJSON(_ db: CLI? = nil) async throws -> String {
        let result = try await (db ?? cli).run(["list", "--json", "--include-hidden", "--limit", "100000"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// A command that does not exist is a usage error, whatever follows it (issue #32, case
    /// 8): a script cannot mistake it for a real one.
    @Test func anUnknownCommandIsAUsageErrorEvenWithHelp() async throws {
        for arguments in [
            ["uncleared", "--help"], ["uncleared"], ["--db", cli.db, "nosuch", "-h"], ["clear\u{1B}[2J"],
        ] {
            let result = try await cli.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stdout)")
            #expect(
                result.stderr.contains("unknown command '") && !result.stderr.contains("\u{1B}"),
                "\(result.stderr)"
            )
        }
        for arguments in [["--help"], ["list", "--help"], ["help", "list"], ["--version"]] {
            #expect(try await cli.run(arguments).status == 0, "\(arguments)")
        }
    }

    /// An extra fact through `--fact`, shown by `show` and `show --json`; an unknown key is a
    /// usage error naming it, and nothing is recorded.
    @Test func anExtraFactIsRecordedAndShown() async throws {
        let replaced = Fixture.evmHash(0xabb)
        let unknown = try await recordSend(["--fact", "replace=\(replaced)"])
        #expect(unknown.status != 0 && unknown.stderr.contains("replace") && unknown.stderr.contains("replaces"))
        let malformed = try await recordSend(["--fact", "replaces"])
        #expect(malformed.status == 64 && malformed.stderr.contains("KEY=VALUE"))
        let nothing = try await cli.history()
        #expect(!nothing.contains(hash))
        #expect(
            try await recordSend([
                "--fact", "replaces=\(replaced.uppercased().replacingOccurrences(of: "0X", with: ""))",
            ]).status == 0
        )
        #expect(try await cli.run(["show", hash]).stdout.contains("replaces: \(replaced)\n"))
        #expect(try await cli.run(["show", hash, "--json"]).stdout.contains("\"replaces\" : \"\(replaced)\""))
    }

    /// A speed-up recorded with `--replaces`: once it confirms, its original is failed,
    /// replaced by it, folded under it in `list` (shown with `--include-replaced`), and each
    /// one's `show --json` names the other.
    @Test func aSpeedUpEndsItsOriginalAsReplaced() async throws {
        let original = Fixture.evmHash(0xab0)
        let base = [
            "record", "send", "--vault", "main", "--chain", "ethereum", "--from", Fixture.evmAddress(1), "--to",
            Fixture.evmAddress(2), "--amount", "1", "--token", "ETH", "--nonce", "7",
        ]
        #expect(try await cli.run(base + ["--hash", original, "--at", "2025-07-01T12:00:00Z"]).status == 0)
        let both = try await cli.run(
            base + [
                "--hash", hash, "--at", "2025-07-01T12:01:00Z", "--replaces", original, "--fact",
                "replaces=\(original)",
            ]
        )
        #expect(both.status == 64 && both.stderr.contains("each key once"))
        #expect(
            try await cli.run(base + ["--hash", hash, "--at", "2025-07-01T12:01:00Z", "--replaces", original]).status
                == 0
        )
        let twice = try await cli.run(["status", hash, "confirmed", "--block", "100", "--detail", "blockNumber=100"])
        #expect(twice.status == 65 && twice.stderr.contains("blockNumber"))
        #expect(try await cli.run(["status", hash, "confirmed", "--detail", "gasUsed=1"]).status == 65)
        #expect(
            try await cli.run(["status", hash, "confirmed", "--block", "100", "--detail", "feePaid=0.0004"]).status == 0
        )

        let replaced = try await cli.run(["show", original, "--json"]).stdout
        #expect(replaced.contains("\"replacedBy\" : \"\(hash)\"") && replaced.contains("\"status\" : \"failed\""))
        let speedUp = try await cli.run(["show", hash, "--json"]).stdout
        #expect(speedUp.contains("\"replaces\" : \"\(original)\"") && speedUp.contains("\"feePaid\" : \"0.0004\""))
        #expect(try await cli.run(["show", original]).stdout.contains("replaced by: \(hash)\n"))
        #expect(try await cli.run(["show", hash]).stdout.contains("block number: 100\n"))

        let listed = try await cli.run(["list", "--vault", "main"]).stdout
        #expect(listed.contains("replaces \(HistoryText.truncated(original))"))
        #expect(!listed.contains("replaced by"))
        let all = try await cli.run(["list", "--vault", "main", "--include-replaced"]).stdout
        #expect(all.contains("replaced by \(HistoryText.truncated(hash))"))
    }

    @Test func recordsListsAndShowsASend() async throws {
        let recorded = try await recordSend()
        #expect(recorded.status == 0)
        #expect(recorded.stdout.hasPrefix("recorded "))
        #expect(try await recordSend().stdout.hasPrefix("already recorded "))

        let list = try await cli.run(["list", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as! [String: Any]
        let items = object["items"] as! [[String: Any]]
        #expect(items.count == 1)
        #expect(object["nextCursor"] is NSNull)
        #expect(items[0]["amount"] as? String == "1234567890.123456789012345678")
        #expect(items[0]["timestamp"] as? String == "2025-07-01T12:00:00Z")
        #expect(items[0]["explorerUrl"] as? String == "https://etherscan.io/tx/\(hash)")
        #expect(items[0]["vaultId"] as? String == "main")

        let show = try await cli.run(["show", hash])
        // What moved in one line, then every field.
        #expect(show.stdout.contains("what: 1234567890.123456789012345678 ETH to 0x0000…0002\n"))
        #expect(show.stdout.contains("amount: 1234567890.123456789012345678\n"))
        let people = try await cli.run(["list"])
        #expect(people.stdout.contains("Send") && people.stdout.contains("$3.50"))
    }

    @Test func statusNeverGoesBackAndSaysSo() async throws {
        try await recordSend()
        #expect(
            try await cli.run(["status", hash, "confirmed", "--at", "2025-07-01T12:01:00Z"]).stdout.contains(
                "broadcasted -> confirmed"
            )
        )
        let back = try await cli.run(["status", hash, "pending"])
        #expect(back.status == 0)
        #expect(back.stdout.contains("unchanged, confirmed never goes back to pending"))
        #expect(
            try await cli.run(["show", hash, "--json"]).stdout.contains("\"confirmedAt\" : \"2025-07-01T12:01:00Z\"")
        )
    }

    @Test func annotationsThroughTheCLI() async throws {
        try await recordSend()
        #expect(try await cli.run(["note", hash, "for rent"]).status == 0)
        #expect(try await cli.run(["label", hash, "tax", "home"]).stdout.contains("[home, tax]"))
        #expect(try await cli.run(["hide", hash]).status == 0)
        #expect(try await cli.run(["list"]).stdout.contains("No transactions yet"))
        let hidden = try await cli.run(["show", hash, "--json"]).stdout
        #expect(hidden.contains("\"note\" : \"for rent\"") && hidden.contains("\"hidden\" : true"))
        #expect(try await cli.run(["unhide", hash]).status == 0)
        #expect(try await cli.run(["list"]).stdout.contains("Send"))
    }

    @Test func listJSONGoesBackInThroughRecordJSON() async throws {
        let seed = try await TestLedger()
        try await seed.ledger.record([
            try Fixture.send(status: .failed(reason: "reverted")), try Fixture.swap(), try Fixture.signature(),
            try Fixture.send(vault: "other", hash: 7, hidden: true),
        ])
        let source = CLI(db: seed.ledger.path)
        let exported = try await listJSON(source)

        let imported = try await cli.run(["record", "--json", "-"], stdin: Data(exported.utf8))
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("recorded 4, already present 0"))
        #expect(try await listJSON() == exported)

        let again = try await cli.run(["record", "--json", "-"], stdin: Data(exported.utf8))
        #expect(again.stdout.contains("recorded 0, already present 4"))
        #expect(try await listJSON() == exported)
    }

    @Test func recordJSONAcceptsOneRecordOrAnArray() async throws {
        let one = try JSONEncoder().encode(try Fixture.swap())
        #expect(try await cli.run(["record", "--json", "-"], stdin: one).stdout.contains("recorded 1,"))
        let file = directory.path("batch.json")
        try JSONEncoder().encode(try (1...5000).map { try Fixture.minimalSend(hash: $0) }).write(
            to: URL(fileURLWithPath: file)
        )
        #expect(try await cli.run(["record", "--json", file]).stdout.contains("recorded 5000, already present 0"))
        #expect(try await cli.run(["list", "--limit", "1", "--json"]).stdout.contains("nextCursor\" : \""))
    }

    /// A long list is decoded a batch at a time, two at once, while the batches before are
    /// written (`RecordBatches`), in order: texts with brackets, commas and escaped quotes come through exactly,
    /// `list --json`'s members in either order; a bad record far into the list writes none of
    /// it and is named as when the list is decoded whole.
    @Test func aLongListIsRecordedWholeOrNotAtAll() async throws {
        try await recordSend()
        let tricky = try TransactionRecord(
            facts: try TransactionFacts(
                vaultId: "vault-1",
                chain: Fixture.ethereum,
                timestamp: Fixture.start,
                txHash: Fixture.evmHash(0x7777),
                details: .send(
                    try SendDetails(
                        toAddress: Fixture.evmAddress(1),
                        amount: try DecimalAmount("1"),
                        token: try Token(symbol: "ETH", contract: nil, decimals: 18),
                        memo: "a\"],[{\"b\": 1}, \\ } ,"
                    )
                )
            ),
            note: "] } [ { \" ,"
        )
        var records = try [tricky] + (1...2500).map { try Fixture.minimalSend(hash: 10_000 + $0) }
        // The same send ends the first batch and, confirmed, starts the second (decoded beside
        // it): in this order it is recorded, then advanced; the other way round, not advanced.
        records[1000] = try TransactionRecord(facts: records[999].facts, status: .confirmed(at: Fixture.start))
        var objects = try records.map {
            try JSONSerialization.jsonObject(with: JSONEncoder().encode($0)) as! [String: Any]
        }
        objects[2100]["amount"] = "12,5"
        try await expectRefused(
            ["record", "--json", "-"],
            stdin: try JSONSerialization.data(withJSONObject: ["nextCursor": NSNull(), "items": objects]),
            exit: 65,
            mentioning: "record 2100: invalid amount"
        )
        let list = try JSONEncoder().encode(records)
        let listing = Data("{ \"nextCursor\" : null ,\n \"items\" :".utf8) + list + Data("\n}".utf8)
        let recorded = try await cli.run(
            ["record", "--json", "-"],
            stdin: listing,
            environment: ["TXLEDGER_LOG": "debug"]
        )
        #expect(
            recorded.stdout.contains("recorded 2500, already present 1 (status advanced on 1)"),
            "\(recorded.stdout) \(recorded.stderr)"
        )
        // In batches, none of which needed the whole input decoded again.
        #expect(recorded.stderr.contains("a batch at a time") && !recorded.stderr.contains("did not decode"))
        let stored = try await cli.run(["show", tricky.id.rawValue, "--json"])
        let shown = try JSONDecoder().decode(TransactionRecord.self, from: Data(stored.stdout.utf8))
        #expect(shown.facts == tricky.facts && shown.note == tricky.note)
    }

    // MARK: - Bad input

    private func expectRefused(
        _ arguments: [String],
        stdin: Data? = nil,
        exit: Int32,
        mentioning text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = try await listJSON()
        let result = try await cli.run(arguments, stdin: stdin)
        #expect(result.status == exit, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderrLines.count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(text), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(try await listJSON() == before, sourceLocation: sourceLocation)
    }

    private func send(
        chain: String = "ethereum",
        hash: String? = nil,
        amount: String = "1",
        at: String = "2025-07-01T00:00:00Z"
    ) -> [String] {
        [
            "record", "send", "--vault", "main", "--chain", chain, "--hash", hash ?? Fixture.evmHash(9), "--to",
            Fixture.evmAddress(2),
            "--amount", amount, "--token", "ETH", "--at", at,
        ]
    }

    @Test func badInputGetsOneLineAndADistinctExitCodeAndChangesNothing() async throws {
        try await recordSend()
        try await expectRefused(send(chain: "etherum"), exit: 65, mentioning: "unknown chain 'etherum'")
        try await expectRefused(send(chain: "eip155:x"), exit: 65, mentioning: "is not a chain identifier")
        try await expectRefused(send(amount: "1e18"), exit: 65, mentioning: "'1e18' is not a decimal amount")
        try await expectRefused(send(amount: "+5"), exit: 65, mentioning: "is not a decimal amount")
        try await expectRefused(send(hash: "0x1234"), exit: 65, mentioning: "is not a Ethereum transaction hash")
        try await expectRefused(send(at: "yesterday"), exit: 65, mentioning: "is not an ISO 8601 time")
        try await expectRefused(
            ["status", Fixture.evmHash(0xdead), "confirmed"],
            exit: 66,
            mentioning: "no transaction with id or hash"
        )
        try await expectRefused(
            ["status", hash, "done"],
            exit: 65,
            mentioning: "'done' is not one of broadcasted, pending, confirmed, failed"
        )
        try await expectRefused(
            ["status", hash, "pending", "--reason", "x"],
            exit: 65,
            mentioning: "only a failed transaction has a failure reason"
        )
        try await expectRefused(["list", "--cursor", "bogus"], exit: 65, mentioning: "invalid cursor")
    }

    @Test func aBadRecordInAJSONBatchWritesNoneOfIt() async throws {
        try await recordSend()
        var records = try (1...3).map {
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(try Fixture.minimalSend(hash: 100 + $0)))
                as! [String: Any]
        }
        records[2]["amount"] = "12,5"
        let batch = try JSONSerialization.data(withJSONObject: records)
        try await expectRefused(
            ["record", "--json", "-"],
            stdin: batch,
            exit: 65,
            mentioning: "record 2: invalid amount"
        )

        records[2]["amount"] = 5
        try await expectRefused(
            ["record", "--json", "-"],
            stdin: try JSONSerialization.data(withJSONObject: records),
            exit: 65,
            mentioning: "record 2: field amount must be a string"
        )
        records[2].removeValue(forKey: "amount")
        try await expectRefused(
            ["record", "--json", "-"],
            stdin: try JSONSerialization.data(withJSONObject: records),
            exit: 65,
            mentioning: "record 2: invalid amount: is required"
        )
        records[2]["amount"] = "5"
        records[2]["id"] = String(repeating: "0", count: 32)
        try await expectRefused(
            ["record", "--json", "-"],
            stdin: try JSONSerialization.data(withJSONObject: records),
            exit: 65,
            mentioning: "is not the id of this transaction"
        )
        try await expectRefused(
            ["record", "--json", "-"],
            stdin: Data("{\"kind\": ".utf8),
            exit: 65,
            mentioning: "not valid JSON"
        )
    }

    @Test func hostileJSONIsRefusedInOneLineAndChangesNothing() async throws {
        try await recordSend()
        let good =
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(try Fixture.minimalSend(hash: 77)))
            as! [String: Any]
        func record(_ change: (inout [String: Any]) -> Void) throws -> Data {
            var object = good
            change(&object)
            return try JSONSerialization.data(withJSONObject: object)
        }
        let cases: [(Data, String)] = [
            // Wrong types.
            (try record { $0["timestamp"] = 1_751_371_200 }, "field timestamp must be a string"),
            (try record { $0["hidden"] = "yes" }, "field hidden must be true or false"),
            (try record { $0["labels"] = "rent" }, "field labels must be an array"),
            (try record { $0["token"] = "ETH" }, "token"),
            (try record { $0["vaultId"] = NSNull() }, "vaultId"),
            (try record { $0["kind"] = ["send"] }, "kind"),
            // Missing fields.
            (try record { $0.removeValue(forKey: "chain") }, "chain"),
            (try record { $0.removeValue(forKey: "toAddress") }, "toAddress"),
            // Huge values.
            (
                Data(
                    String(data: try record { _ in }, encoding: .utf8)!.replacingOccurrences(
                        of: "\"timestamp\":",
                        with: "\"nonce\":1e300,\"timestamp\":"
                    ).utf8
                ), "nonce"
            ),
            (try record { $0["token"] = ["symbol": "ETH", "decimals": 1_000_000_000_000] }, "decimals"),
            (try record { $0["amount"] = String(repeating: "9", count: 100_000) }, "amount"),
            (
                try record { $0["memo"] = String(repeating: "m", count: 5_000_000) },
                "memo: is 5000000 bytes long; the limit is 1024"
            ),
            (try record { $0["vaultId"] = String(repeating: "v", count: 300) }, "vault"),
            (try record { $0["labels"] = (0..<10_000).map { "l\($0)" } }, "label"),
            // Not JSON a decoder should ever recurse into.
            (Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8), "JSON"),
            (Data([0xFF, 0xFE, 0x00, 0x7B]), "not valid JSON"),
        ]
        for (input, field) in cases {
            try await expectRefused(["record", "--json", "-"], stdin: input, exit: 65, mentioning: field)
        }
    }

    @Test func anUnreadableLedgerFailsWithExitCode74AndIsLeftAlone() async throws {
        let path = directory.path("garbage.sqlite")
        let garbage = Data(repeating: 0x41, count: 8192)
        try garbage.write(to: URL(fileURLWithPath: path))
        let result = try await CLI(db: path).run(["list"])
        #expect(result.status == 74)
        #expect(
            result.stderrLines == [
                "txledger: cannot open ledger '\(path)': it is not a SQLite database; the file was left untouched"
            ]
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }
}
