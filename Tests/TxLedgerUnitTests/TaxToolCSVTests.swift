import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Koinly's and CoinTracker's CSVs (Specs/queries.md, "Tax tools"), read back by Python's csv
/// module with their exact headers.
@Suite(.enabled(if: Python.path != nil, "needs python3 to parse the CSV back"))
struct TaxToolCSVTests {
    private func rows(_ path: String) async throws -> [[String: String]] {
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: Python.path!),
            [
                "-c",
                "import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))))",
                path,
            ]
        )
        try #require(result.status == 0)
        let table = try JSONDecoder().decode([[String]].self, from: result.stdout)
        return table.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(table[0], $0)) }
    }

    private func header(_ path: String) throws -> String {
        String(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\r\n").first ?? "")
    }

    /// A confirmed send on Base with a fee estimate and the fee it paid, a THORChain swap with
    /// the fee it paid, a failed send (only its fee), a failed swap without a fee (no line), a
    /// dropped send (an inferred failure: never mined, no line) and a signature request (no line).
    private func ledger() async throws -> TestLedger {
        let test = try await TestLedger()
        let base = try Chain(parsing: "base")
        let send = try TransactionRecord(
            facts: TransactionFacts(
                vaultId: "vault-1",
                chain: base,
                timestamp: Date(millis: 1_751_371_215_250),
                txHash: Fixture.evmHash(7),
                fiatValue: try DecimalAmount("812.40"),
                fromAddress: Fixture.evmAddress(1),
                details: .send(
                    try SendDetails(
                        toAddress: Fixture.evmAddress(2),
                        amount: try DecimalAmount("0.25"),
                        token: try Token(symbol: "ETH"),
                        feeEstimate: try DecimalAmount("0.000042")
                    )
                )
            ),
            status: .confirmed(at: nil, feePaid: try DecimalAmount("0.000039")),
            note: "rent, July"
        )
        let failedSend = try Fixture.send(
            hash: 8,
            at: Fixture.start.addingTimeInterval(60),
            status: .failed(reason: "reverted")
        )
        let swap = try Fixture.swap(hash: 2, at: Fixture.start.addingTimeInterval(120))
        var failedSwap = try Fixture.swap(hash: 3, at: Fixture.start.addingTimeInterval(180))
        failedSwap = try TransactionRecord(facts: failedSwap.facts, status: .failed(reason: "refunded"))
        let droppedSend = try Fixture.send(
            hash: 9,
            at: Fixture.start.addingTimeInterval(200),
            status: .inferredFailure(reason: "dropped or replaced: nonce 7 was used by another transaction")
        )
        try await test.ledger.record([
            send, failedSend, swap, failedSwap, droppedSend,
            try Fixture.signature(at: Fixture.start.addingTimeInterval(240)),
        ])
        return test
    }

    @Test func koinlysUniversalTemplate() async throws {
        let test = try await ledger()
        let folder = try TemporaryDirectory()
        let path = folder.path("koinly.csv")
        #expect(try await test.ledger.exportCSV(HistoryFilter(vault: "vault-1"), to: path, format: .koinly) == 3)
        #expect(
            try header(path)
                == "Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,"
                + "Net Worth Amount,Net Worth Currency,Label,Description,TxHash"
        )
        let table = try await rows(path)
        #expect(table.count == 3)
        #expect(
            table[0] == [
                "Date": "2025-07-01 12:00 UTC", "Sent Amount": "0.25", "Sent Currency": "ETH", "Received Amount": "",
                "Received Currency": "", "Fee Amount": "0.000039", "Fee Currency": "ETH", "Net Worth Amount": "812.40",
                "Net Worth Currency": "USD", "Label": "", "Description": "rent, July", "TxHash": Fixture.evmHash(7),
            ]
        )
        #expect(table[1]["Date"] == "2025-07-01 12:01 UTC")
        #expect(
            table[1]["Sent Amount"] == "" && table[1]["Fee Amount"] == "0.000021" && table[1]["Fee Currency"] == "ETH",
            "a failed send carries only its fee"
        )
        #expect(table[1]["Net Worth Amount"] == "")
        #expect(table[2]["Sent Amount"] == "100.5" && table[2]["Sent Currency"] == "RUNE")
        #expect(table[2]["Received Amount"] == "0.00123456" && table[2]["Received Currency"] == "BTC")
        #expect(table[2]["Fee Amount"] == "0.02" && table[2]["Fee Currency"] == "RUNE", "the fee the swap paid")
    }

    @Test func coinTrackersImportFormat() async throws {
        let test = try await ledger()
        let folder = try TemporaryDirectory()
        let path = folder.path("cointracker.csv")
        #expect(try await test.ledger.exportCSV(HistoryFilter(vault: "vault-1"), to: path, format: .cointracker) == 3)
        #expect(
            try header(path)
                == "Date,Received Quantity,Received Currency,Sent Quantity,Sent Currency,Fee Amount,Fee Currency,Tag"
        )
        let table = try await rows(path)
        #expect(
            table[0] == [
                "Date": "07/01/2025 12:00:15", "Received Quantity": "", "Received Currency": "",
                "Sent Quantity": "0.25",
                "Sent Currency": "ETH", "Fee Amount": "0.000039", "Fee Currency": "ETH", "Tag": "",
            ]
        )
        #expect(table[2]["Received Quantity"] == "0.00123456" && table[2]["Sent Quantity"] == "100.5")
    }

    @Test func theCLIWritesEachFormat() async throws {
        let directory = try TemporaryDirectory()
        let cli = CLI(db: directory.path("ledger.sqlite"))
        try await cli.run(CLI.send(1))
        for (format, first) in [
            ("koinly", "Date,Sent Amount"), ("cointracker", "Date,Received Quantity"), ("txledger", "date,vault"),
        ] {
            let path = directory.path("\(format).csv")
            let result = try await cli.run(["export-csv", "--vault", "main", "--out", path, "--format", format])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try header(path).hasPrefix(first))
        }
        #expect(
            try await cli.run([
                "export-csv", "--vault", "main", "--out", directory.path("x.csv"), "--format", "turbotax",
            ]).status == 64
        )
    }
}
