import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// A bitcoin transaction replaced by fee (RBF): gone from the node, one of the outputs it
/// spends now spent by another transaction, found through Esplora's outspend endpoint.
@Suite struct EsploraReplacementTests {
    static let inputA = String(repeating: "aa", count: 32)
    static let inputB = String(repeating: "bb", count: 32)
    static let replacer = String(repeating: "cd", count: 32)

    private func run(
        spentBy: String?,
        confirmed: Bool,
        passes: Int = 1
    ) async throws -> (TransactionRecord, [ChainServer.Request]) {
        let record = try StatusFixture.bitcoinSend(spends: ["\(Self.inputB):1", "\(Self.inputA.uppercased()):0"])
        let harness = try await RefreshHarness([record])
        let server = try await ChainServer.start { request in
            switch request.path {
            case "/tx/\(Self.inputA)/outspend/0": .http(200, ChainResponses.esploraOutspend(spentBy: nil))
            case "/tx/\(Self.inputB)/outspend/1":
                .http(200, ChainResponses.esploraOutspend(spentBy: spentBy, confirmed: confirmed))
            default: .http(404, ChainResponses.esploraNotFound)
            }
        }
        defer { Task { await server.stop() } }
        for _ in 0..<passes {
            _ = try await harness.refresher(["bitcoin": try server.endpoint()]).refreshPending()
            harness.test.clock.advance(by: 60)
        }
        return (try await harness.record(record.id), await server.requests)
    }

    @Test func anOutputSpentByAConfirmedTransactionProvesTheReplacement() async throws {
        let (record, requests) = try await run(spentBy: Self.replacer, confirmed: true)
        #expect(record.status == .failed && record.statusEvidence == .proof)
        #expect(record.replacedBy == Self.replacer && record.failureReason == "replaced by \(Self.replacer)")
        #expect(
            requests.map(\.path) == [
                "/tx/\(record.txHash!)", "/tx/\(Self.inputA)/outspend/0", "/tx/\(Self.inputB)/outspend/1",
            ]
        )
    }

    @Test func anOutputSpentInTheMempoolIsAnInferenceThatWaitsForASecondCheck() async throws {
        let (once, _) = try await run(spentBy: Self.replacer, confirmed: false)
        #expect(once.status == .pending)
        let (twice, _) = try await run(spentBy: Self.replacer, confirmed: false, passes: 2)
        #expect(twice.status == .failed && twice.statusEvidence == .inference)
        #expect(twice.failureReason == "replaced by \(Self.replacer), not yet confirmed")
    }

    @Test func unspentOutputsOrOnesSpentByTheTransactionItselfProveNothing() async throws {
        let (unspent, _) = try await run(spentBy: nil, confirmed: true, passes: 2)
        #expect(unspent.status == .pending)
        let (itself, _) = try await run(spentBy: Fixture.hex(1, digits: 64), confirmed: true, passes: 2)
        #expect(itself.status == .pending)
    }
}
