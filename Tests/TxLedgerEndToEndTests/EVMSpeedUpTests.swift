import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStatus
@testable import TxLedgerTestSupport

/// A speed-up on a real EVM: eth-tester's py-evm backend (Tests/Fixtures/evm/speed_up.py,
/// in the virtual environment `scripts/setup-evm.sh` makes) mines a speed-up of a transfer
/// (one nonce, higher fees) and three blocks more, and gives the JSON-RPC answers a node would
/// give about both; a loopback server serves them to the EVM status provider.
@Suite(.enabled(if: EVMTester.python != nil, "needs .build/evm (scripts/setup-evm.sh) with eth-tester"))
struct EVMSpeedUpTests {
    /// What the EVM did and the node's answers.
    struct Chain: Decodable {
        struct Answer: Decodable {
            let method: String
            let params: JSONValue
            let result: JSONValue
        }

        let sender: String
        let nonce: UInt64
        let original: String
        let speedUp: String
        let answers: [Answer]

        /// The node's answer to `request`, matched on the method and the parameters (addresses
        /// and hashes in any case), or `nil` for a call the EVM was not asked.
        func answer(_ request: ChainServer.Request) -> JSONValue? {
            let params = JSONValue.array(request.rpcParams).compactText.lowercased()
            return answers.first { $0.method == request.rpcMethod && $0.params.compactText.lowercased() == params }?
                .result
        }
    }

    @Test func theSpeedUpConfirmsWithWhatItPaidAndItsOriginalEndsReplaced() async throws {
        let run = try await ChildProcess.run(URL(fileURLWithPath: EVMTester.python!), [EVMTester.script])
        try #require(run.status == 0, "\(String(decoding: run.stderr, as: UTF8.self))")
        let chain = try JSONDecoder().decode(Chain.self, from: run.stdout)

        let transfer = try SendDetails(
            toAddress: Fixture.evmAddress(2),
            amount: try DecimalAmount("0.001"),
            token: try Token(symbol: "ETH")
        )
        func record(_ hash: String, replaces: String?) throws -> TransactionRecord {
            try TransactionRecord(
                facts: try TransactionFacts(
                    vaultId: "main",
                    chain: Fixture.ethereum,
                    timestamp: StatusFixture.now,
                    txHash: hash,
                    fromAddress: chain.sender,
                    nonce: chain.nonce,
                    extras: replaces.map { ["replaces": $0] } ?? [:],
                    details: .send(transfer)
                ),
                status: .pending
            )
        }
        let original = try record(chain.original, replaces: nil)
        let speedUp = try record(chain.speedUp, replaces: chain.original)
        let harness = try await RefreshHarness([original, speedUp])
        let unanswered = LockedValue<[String]>([])
        let server = try await ChainServer.start { request in
            guard let result = chain.answer(request) else {
                unanswered.update { $0.append("\(request.rpcMethod ?? request.path) \(request.rpcParams)") }
                return .http(400, "{}")
            }
            return .rpcResult(result.compactText)
        }
        defer { Task { await server.stop() } }
        let refresher = harness.refresher(["ethereum": try server.endpoint()])
        _ = try await refresher.refreshPending()
        harness.test.clock.advance(by: 60)
        _ = try await refresher.refreshPending()

        let confirmed = try await harness.record(speedUp.id)
        #expect(confirmed.status == .confirmed && confirmed.statusEvidence == .proof && confirmed.blockNumber == 1)
        // 21000 gas at the 3 gwei the EVM charged.
        #expect(confirmed.feePaid?.string == "0.000063")
        let replaced = try await harness.record(original.id)
        #expect(replaced.status == .failed && replaced.statusEvidence == .proof)
        #expect(replaced.replacedBy == chain.speedUp)
        #expect(unanswered.get().isEmpty, "\(unanswered.get())")
    }
}
