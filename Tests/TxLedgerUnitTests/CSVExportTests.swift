import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// The tax-friendly CSV (issue #6), read back by Python's `csv` module: a real RFC 4180 parser
/// written by other people.
@Suite(.enabled(if: Python.path != nil, "needs python3 to parse the CSV back"))
struct CSVExportTests {
    /// The rows of a CSV file as Python's csv.reader sees them.
    private func parse(_ path: String) async throws -> [[String]] {
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: Python.path!),
            [
                "-c",
                "import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))))",
                path,
            ]
        )
        try #require(result.status == 0)
        return try JSONDecoder().decode([[String]].self, from: result.stdout)
    }

    @Test func everyColumnSurvivesARealParser() async throws {
        let test = try await TestLedger()
        let tricky = "paid \"Bob\", rent\nline two; ünïcödé ✓"
        let send = try Fixture.send(
            hash: 1,
            at: Fixture.start.addingTimeInterval(0.25),
            status: .confirmed(at: Fixture.start.addingTimeInterval(90)),
            note: tricky,
            labels: ["tax", "home, sweet"]
        )
        let formula = try Fixture.send(
            hash: 3,
            at: Fixture.start.addingTimeInterval(10),
            note: "=HYPERLINK(\"http://x\")",
            labels: ["-1", "@a"]
        )
        let swap = try Fixture.swap(hash: 2, at: Fixture.start.addingTimeInterval(5))
        let signature = try Fixture.signature(at: Fixture.start.addingTimeInterval(20))
        try await test.ledger.record([signature, formula, swap, send])
        _ = try await test.ledger.updateStatus(formula.id, to: .failed(reason: "reverted, out of gas"))
        _ = try await test.ledger.setNote("first line\nsecond line", for: signature.id)

        let folder = try TemporaryDirectory()
        let path = folder.path("history.csv")
        #expect(try await test.ledger.exportCSV(HistoryFilter(vault: "vault-1"), to: path) == 4)
        let bytes = try String(contentsOfFile: path, encoding: .utf8)
        #expect(bytes.hasSuffix("\r\n"))
        #expect(!bytes.replacingOccurrences(of: "\r\n", with: "").contains("\r"))

        let rows = try await parse(path)
        #expect(rows.first == HistoryCSV.columns)
        // The first exports' 29 columns keep their places, the extra facts follow, then the rest.
        #expect(rows.first?.count == 54 && rows.first?.prefix(32).suffix(3) == ["nonce", "replaces", "spends"])
        let table = rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(rows[0], $0)) }
        #expect(table.map { $0["id"] } == [send, swap, formula, signature].map(\.id.rawValue), "oldest first")

        let s = table[0]
        #expect(s["date"] == "2025-07-01T12:00:00.250Z")
        #expect(
            s["vault"] == "vault-1" && s["type"] == "send" && s["status"] == "confirmed" && s["chain"] == "ethereum"
        )
        #expect(s["tx_hash"] == Fixture.evmHash(1))
        #expect(s["from"] == Fixture.evmAddress(0xCAFE) && s["to"] == Fixture.evmAddress(0xBEEF))
        #expect(s["amount"] == "1234567890.123456789012345678" && s["token"] == "USDC" && s["fee"] == "0.000021")
        #expect(s["fiat_value"] == "1234.56")
        #expect(s["explorer_url"] == "https://etherscan.io/tx/\(Fixture.evmHash(1))")
        #expect(s["confirmed_at"] == "2025-07-01T12:01:30Z")
        #expect(s["note"] == tricky)
        #expect(s["labels"] == "home, sweet; tax")
        #expect(s["sold_amount"] == "" && s["provider"] == "")
        #expect(s["replaces"] == Fixture.evmHash(0x1001))

        let w = table[1]
        #expect(w["type"] == "swap" && w["chain"] == "thorchain" && w["amount"] == "" && w["token"] == "")
        #expect(w["sold_amount"] == "100.5" && w["sold_token"] == "RUNE" && w["sold_chain"] == "thorchain")
        #expect(w["bought_amount"] == "0.00123456" && w["bought_token"] == "BTC" && w["bought_chain"] == "bitcoin")
        #expect(w["provider"] == "THORChain" && w["fiat_value"] == "512.00")
        #expect(w["block_number"] == "21000123" && w["fee_paid"] == "0.02" && w["status_evidence"] == "proof")

        // Text a spreadsheet would run as a formula is defused with a leading quote.
        let f = table[2]
        #expect(f["note"] == "'=HYPERLINK(\"http://x\")")
        #expect(f["labels"] == "'-1; @a")
        #expect(f["status"] == "failed" && f["failure_reason"] == "reverted, out of gas")

        let g = table[3]
        #expect(g["type"] == "signature" && g["tx_hash"] == "" && g["status"] == "broadcasted")
        #expect(g["block_number"] == "" && g["fee_paid"] == "" && g["status_evidence"] == "")
        #expect(g["note"] == "first line\nsecond line")
    }

    @Test func filtersApplyAndHiddenRecordsStayOutUnlessAsked() async throws {
        let test = try await TestLedger()
        let records = try HistoryFixture.records(count: 50)
        try await test.ledger.record(records)
        let folder = try TemporaryDirectory()
        for filter in [
            HistoryFilter(vault: "main", tab: .swaps), HistoryFilter(vault: "main", includeHidden: true),
            HistoryFilter(vault: "savings", statuses: [.failed], search: "rent"),
        ] {
            let path = folder.path("out.csv")
            let count = try await test.ledger.exportCSV(filter, to: path)
            let expected = records.filter { HistoryFixture.matches($0, filter) }.sorted {
                ($0.timestamp, $0.id) < ($1.timestamp, $1.id)
            }
            #expect(count == expected.count)
            let rows = try await parse(path)
            let id = try #require(rows.first?.firstIndex(of: "id"))
            #expect(rows.dropFirst().map { $0[id] } == expected.map(\.id.rawValue))
        }
    }

    @Test func aFailedExportLeavesNothingAndKeepsAnExistingFile() async throws {
        let test = try await TestLedger()
        try await test.ledger.record(try Fixture.minimalSend(hash: 1))
        let folder = try TemporaryDirectory()
        await #expect(throws: LedgerError.self) {
            try await test.ledger.exportCSV(HistoryFilter(), to: folder.path("missing/out.csv"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("")).isEmpty)

        let path = folder.path("out.csv")
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        try await test.ledger.exportCSV(HistoryFilter(), to: path)
        #expect(try await parse(path).count == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("")) == ["out.csv"])
    }
}
