import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// `refresh` through the real binary, against loopback servers.
struct CLIRefreshTests {
    let test: TestLedger
    let cli: CLI
    let evm: TransactionRecord
    let bitcoin: TransactionRecord
    let solana: TransactionRecord

    init() async throws {
        test = try await TestLedger()
        evm = try StatusFixture.evmSend(nonce: 4)
        bitcoin = try StatusFixture.bitcoinSend()
        solana = try StatusFixture.solanaSend()
        try await test.ledger.record([evm, bitcoin, solana])
        cli = CLI(db: test.ledger.path)
    }

    private func servers() async throws -> (ChainServer, ChainServer) {
        let hash = evm.txHash!
        let rpc = try await ChainServer.start { request in
            request.rpcMethod == "eth_getBlockByNumber"
                ? .rpcResult(ChainResponses.block) : .rpcResult(ChainResponses.receipt(hash, status: "0x0"))
        }
        let esplora = try await ChainServer.start { _ in .http(200, ChainResponses.esploraUnconfirmed) }
        return (rpc, esplora)
    }

    @Test func onePassPrintsWhatChangedWhatIsPendingAndWhatWasNotChecked() async throws {
        let (rpc, esplora) = try await servers()
        let result = try await cli.run([
            "refresh", "--timeout", String(Int(TestLimits.hang)), "--endpoint", "eth=\(rpc.url.absoluteString)",
            "--endpoint", "bitcoin=\(esplora.url.absoluteString)",
        ])
        await rpc.stop()
        await esplora.stop()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.split(separator: "\n") == [
                "failed      ethereum   send  \(HistoryText.truncated(evm.txHash!)) was pending; reverted",
                "pending     bitcoin    send  \(HistoryText.truncated(bitcoin.txHash!)) still pending",
                "unchecked   solana     send  \(HistoryText.truncated(solana.txHash!)) no endpoint for solana",
                "1 changed, 1 still pending, 1 not checked",
            ]
        )
        #expect(try await test.ledger.transaction(id: evm.id)?.failureReason == "reverted")
        #expect(try await test.ledger.transaction(id: bitcoin.id)?.lastCheckedAt != nil)
    }

    @Test func jsonAndAnEndpointsFile() async throws {
        let (rpc, esplora) = try await servers()
        let file = test.directory.path("endpoints")
        try "# chain endpoints\n\nethereum=\(rpc.url.absoluteString)\n  bitcoin = \(esplora.url.absoluteString)\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await cli.run([
            "refresh", "--timeout", String(Int(TestLimits.hang)), "--vault", "vault-1", "--endpoints", file, "--json",
        ])
        await rpc.stop()
        await esplora.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [[String: Any]]]
        )
        #expect(object["changed"]?.map { $0["id"] as? String } == [evm.id.rawValue])
        #expect(object["changed"]?.first?["status"] as? String == "failed")
        #expect(object["changed"]?.first?["previousStatus"] as? String == "pending")
        // The reverted receipt's block (0x1b4) and gas (1244 at 20 gwei), proven.
        #expect(object["changed"]?.first?["blockNumber"] as? Int == 436)
        #expect(object["changed"]?.first?["feePaid"] as? String == "0.00002488")
        #expect(object["changed"]?.first?["statusEvidence"] as? String == "proof")
        #expect(object["stillPending"]?.map { $0["id"] as? String } == [bitcoin.id.rawValue])
        #expect(object["notChecked"]?.map { $0["problem"] as? String } == ["no_endpoint"])
    }

    @Test func watchEndsOnceNothingCheckableIsPending() async throws {
        let (rpc, esplora) = try await servers()
        await esplora.stop()
        let confirming = try await ChainServer.start { _ in .http(200, ChainResponses.esploraConfirmed) }
        let result = try await cli.run([
            "refresh", "--timeout", String(Int(TestLimits.hang)), "--watch", "--endpoint",
            "ethereum=\(rpc.url.absoluteString)",
            "--endpoint", "bitcoin=\(confirming.url.absoluteString)",
        ])
        await rpc.stop()
        await confirming.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("failed      ethereum") })
        #expect(
            lines.contains { $0.hasPrefix("confirmed   bitcoin") && $0.hasSuffix("confirmed at 2023-07-24T03:17:09Z") }
        )
        #expect(lines.last == "nothing left to check")
        #expect(try await test.ledger.pendingRecords().map(\.id) == [solana.id])
    }

    @Test func badEndpointsAreRefusedWithoutEchoingTheirURL() async throws {
        let missing = try await cli.run(["refresh"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("--endpoint CHAIN=URL"))

        let file = test.directory.path("endpoints")
        try "ethereum=http://127.0.0.1:8545\nbitcoin https://SECRET-KEY.example\n".write(
            toFile: file,
            atomically: true,
            encoding: .utf8
        )
        let badLine = try await cli.run(["refresh", "--endpoints", file])
        #expect(badLine.status == 65)
        #expect(badLine.stderr.contains("line 2"))
        #expect(!badLine.stderr.contains("SECRET"))

        let unreachable = try await cli.run([
            "refresh", "--endpoint", "ethereum=http://127.0.0.1:1/v3/SECRET-KEY", "--timeout",
            String(Int(TestLimits.hang)),
        ])
        #expect(unreachable.status == 0)
        #expect(unreachable.stdout.contains("endpoint unreachable"))
        #expect(!(unreachable.stdout + unreachable.stderr).contains("SECRET"))
        #expect(try await test.ledger.transaction(id: evm.id)?.status == .pending)
    }

    /// `--confirmations` per chain: a receipt two blocks deep stays pending where three are
    /// asked, and confirms where the default (1) holds; a count below 1 is refused.
    @Test func confirmationsAreAskedPerChain() async throws {
        let hash = evm.txHash!
        let rpc = try await ChainServer.start { request in
            switch request.rpcMethod {
            case "eth_getBlockByNumber": .rpcResult(ChainResponses.block)
            case "eth_blockNumber": .rpcResult("\"0x1b5\"")
            default: .rpcResult(ChainResponses.receipt(hash, status: "0x1"))
            }
        }
        defer { Task { await rpc.stop() } }
        let endpoint = "ethereum=\(rpc.url.absoluteString)"
        let refresh = [
            "refresh", "--vault", "vault-1", "--timeout", String(Int(TestLimits.hang)), "--endpoint", endpoint,
        ]
        let deep = try await cli.run(refresh + ["--confirmations", "1", "--confirmations", "eth=3"])
        #expect(deep.status == 0, "\(deep.stderr)")
        #expect(try await test.ledger.transaction(id: evm.id)?.status == .pending)
        let bad = try await cli.run(refresh + ["--dropped-after", "0"])
        #expect(bad.status == 65 && bad.stderr.contains("--dropped-after"))
        #expect(try await cli.run(refresh).status == 0)
        #expect(try await test.ledger.transaction(id: evm.id)?.status == .confirmed)
    }

    @Test func recordTakesAnEVMNonce() async throws {
        let cli = CLI(db: test.directory.path("other.sqlite"))
        let send = [
            "record", "send", "--vault", "v", "--hash", Fixture.evmHash(9), "--to", Fixture.evmAddress(2),
            "--amount", "1", "--token", "ETH", "--from", Fixture.evmAddress(3),
        ]
        #expect(try await cli.run(send + ["--chain", "ethereum", "--nonce", "42"]).status == 0)
        #expect(try await cli.history().contains(#""nonce" : 42"#))
        let bitcoin = try await cli.run([
            "record", "send", "--vault", "v", "--chain", "bitcoin", "--hash", Fixture.hex(9, digits: 64),
            "--to", "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh", "--amount", "1", "--token", "BTC",
            "--nonce", "1",
        ])
        #expect(bitcoin.status == 65)
        #expect(bitcoin.stderr.contains("only an EVM send or swap has a nonce"))
        for bad in ["-1", "1.5", "\"7\""] {
            let json =
                #"{"vaultId":"v","kind":"send","chain":"ethereum","timestamp":"2025-07-01T00:00:00Z","txHash":"\#(Fixture.evmHash(8))","toAddress":"\#(Fixture.evmAddress(2))","amount":"1","token":{"symbol":"ETH"},"nonce":\#(bad)}"#
            let result = try await cli.run(["record", "--json", "-"], stdin: Data(json.utf8))
            #expect(result.status == 65)
            #expect(result.stderr.contains("invalid nonce: must be a whole number"), "\(bad)")
        }
        #expect(try await cli.history().components(separatedBy: "\"id\"").count == 2)  // only the first send
    }
}
