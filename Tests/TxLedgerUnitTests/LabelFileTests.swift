import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// BIP-329 label files (Specs/labels.md).
struct LabelFileTests {
    static let txid = "f91d0a8a78462bc59398f2c5d7a84fcff491c26ba54c4833478b202796c8aafd"
    static let other = "c3bdad6e7dcd7997e16a5b7b7cf4d8f6079820ff2eedd5fcbb2ad088f767b37b"

    func bitcoinSend(_ hash: String, vault: String = "vault-1", note: String? = nil) throws -> TransactionRecord {
        let bitcoin = try Chain(parsing: "bitcoin")
        return try TransactionRecord(
            facts: TransactionFacts(
                vaultId: vault,
                chain: bitcoin,
                timestamp: Fixture.start,
                txHash: hash,
                details: .send(
                    try SendDetails(
                        toAddress: "bc1q34aq5drpuwy3wgl9lhup9892qp6svr8ldzyy7c",
                        amount: try DecimalAmount("0.01"),
                        token: try Token(symbol: "BTC")
                    )
                )
            ),
            note: note
        )
    }

    /// A file as Sparrow writes it: a transaction, an address, an output and an xpub.
    static let sparrow = """
        {"type":"tx","ref":"\(txid.uppercased())","label":"Rent, July\\nsecond line","origin":"wpkh([d34db33f/84'/0'/0'])"}
        {"type":"addr","ref":"bc1q34aq5drpuwy3wgl9lhup9892qp6svr8ldzyy7c","label":"Address"}
        {"type":"output","ref":"\(txid):0","label":"Output","spendable":false}
        {"type":"xpub","ref":"xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8","label":"Wallet"}

        {"type":"tx","ref":"\(other)","label":"not ours"}
        {"type":"tx","ref":"\(txid)","label":""}
        """

    @Test func aSparrowFileSetsTheNotesOfMatchingTransactions() async throws {
        let test = try await TestLedger()
        try await test.ledger.record([
            try bitcoinSend(Self.txid), try bitcoinSend(Self.other, vault: "elsewhere"), try Fixture.send(),
        ])
        let folder = try TemporaryDirectory()
        let path = folder.path("sparrow.jsonl")
        try Data(Self.sparrow.utf8).write(to: URL(fileURLWithPath: path))
        let done = try await test.ledger.importLabels(from: path, vault: "vault-1")
        #expect(done == LabelImport(applied: 1, unchanged: 0, unmatched: 1, ignored: 4))
        let record = try await test.ledger.transaction(id: try bitcoinSend(Self.txid).id)
        #expect(record?.note == "Rent, July\nsecond line")
        let again = try await test.ledger.importLabels(from: path, vault: "vault-1")
        #expect(again.applied == 0 && again.unchanged == 1)
    }

    @Test func aMalformedFileIsRefusedWholeAndChangesNothing() async throws {
        let test = try await TestLedger()
        try await test.ledger.record(try bitcoinSend(Self.txid))
        let folder = try TemporaryDirectory()
        let cases: [(String, String)] = [
            (
                #"{"type":"tx","ref":"\#(Self.txid)","label":"fine"}"# + "\nnot json",
                "line 2 is not a BIP-329 label (a JSON object with a string type and ref)"
            ),
            (
                #"{"type":"tx","label":"no ref"}"#,
                "line 1 is not a BIP-329 label (a JSON object with a string type and ref)"
            ),
            (
                #"{"type":"tx","ref":"\#(Self.txid)","label":7}"#,
                "line 1 is not a BIP-329 label (a JSON object with a string type and ref)"
            ),
            (
                #"{"type":"tx","ref":"\#(Self.txid)","label":"\#(String(repeating: "x", count: 10_001))"}"#,
                "line 1: the label is 10001 bytes long; the limit is 10000"
            ),
        ]
        for (text, reason) in cases {
            let path = folder.path("bad.jsonl")
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            await #expect(throws: LedgerError.invalidInput(field: "labels", reason: reason)) {
                try await test.ledger.importLabels(from: path, vault: "vault-1")
            }
            #expect(
                try await test.ledger.transaction(id: try bitcoinSend(Self.txid).id)?.note == nil,
                "nothing applied"
            )
        }
    }

    @Test(.enabled(if: Python.path != nil, "needs python3 to read the JSON Lines back"))
    func theExportIsJSONLinesOfBitcoinTransactions() async throws {
        let test = try await TestLedger()
        try await test.ledger.record([
            try bitcoinSend(Self.txid, note: "paid \"Bob\"\nline two"), try bitcoinSend(Self.other),
            try Fixture.send(note: "an EVM send: no BIP-329 line"),
        ])
        try await test.ledger.setLabels(["tax", "home"], for: try bitcoinSend(Self.other).id)
        let folder = try TemporaryDirectory()
        let path = folder.path("labels.jsonl")
        #expect(try await test.ledger.exportLabels(vault: "vault-1", to: path) == 2)
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: Python.path!),
            [
                "-c",
                "import json, sys; print(json.dumps([json.loads(line) for line in open(sys.argv[1], encoding='utf-8')]))",
                path,
            ]
        )
        try #require(result.status == 0)
        let lines = try JSONDecoder().decode([[String: String]].self, from: result.stdout)
        #expect(
            Set(lines) == [
                ["type": "tx", "ref": Self.txid, "label": "paid \"Bob\"\nline two"],
                ["type": "tx", "ref": Self.other, "label": "home, tax"],
            ]
        )

        // Read back into another ledger, the notes come back (labels become the note).
        let other = try await TestLedger()
        try await other.ledger.record([try bitcoinSend(Self.txid), try bitcoinSend(Self.other)])
        #expect(try await other.ledger.importLabels(from: path, vault: "vault-1").applied == 2)
    }

    @Test func theCLIExportsAndImports() async throws {
        let directory = try TemporaryDirectory()
        let cli = CLI(db: directory.path("ledger.sqlite"))
        try await cli.run([
            "record", "send", "--vault", "main", "--chain", "bitcoin", "--hash", Self.txid, "--to",
            "bc1q34aq5drpuwy3wgl9lhup9892qp6svr8ldzyy7c", "--amount", "0.01", "--token", "BTC",
        ])
        let path = directory.path("sparrow.jsonl")
        try Data(Self.sparrow.utf8).write(to: URL(fileURLWithPath: path))
        let imported = try await cli.run(["import-labels", path, "--vault", "main"])
        #expect(
            imported.status == 0 && imported.stdout == "applied 1, unchanged 0, unmatched 1, ignored 4\n",
            "\(imported.stderr)"
        )
        let exported = try await cli.run(["export-labels", "--vault", "main", "--out", directory.path("out.jsonl")])
        #expect(exported.stdout == "wrote 1 label to \(directory.path("out.jsonl"))\n")
        try Data("junk".utf8).write(to: URL(fileURLWithPath: path))
        let refused = try await cli.run(["import-labels", path, "--vault", "main"])
        #expect(refused.status == 65 && refused.stderr.contains("line 1"), "\(refused.stderr)")
    }
}
