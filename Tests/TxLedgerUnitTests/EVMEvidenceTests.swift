import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStatus
@testable import TxLedgerTestSupport

/// The EVM provider against endpoints that lag, disagree or reorganise: a mined transaction is
/// never failed, a drop is inferred only from a nonce used several blocks deep and seen by two
/// checks a while apart, and a late receipt overturns the inference (status-tracking.md, "Proof
/// and inference", "Confirmation depth").
@Suite struct EVMEvidenceTests {
    /// A chain at `latest` where the sender's nonce 7 was used by another transaction in block
    /// `usedAt` (`nil`: not used), and this record's receipt exists from block `minedAt` on
    /// (`nil`: never): each request is answered as a node at `latest` would.
    struct Chain: Sendable {
        var latest: UInt64
        var usedAt: UInt64?
        var minedAt: UInt64?

        func answer(_ request: ChainServer.Request, hash: String) -> ChainServer.Reply {
            switch request.rpcMethod {
            case "eth_getTransactionReceipt":
                guard let minedAt, minedAt <= latest else { return .rpcResult("null") }
                return .rpcResult(ChainResponses.receipt(hash, status: "0x1", block: EVMStatusProvider.hex(minedAt)))
            case "eth_getTransactionByHash": return .rpcResult("null")
            case "eth_getBlockByNumber": return .rpcResult(ChainResponses.block)
            case "eth_blockNumber": return .rpcResult("\"\(EVMStatusProvider.hex(latest))\"")
            case "eth_getTransactionCount":
                guard case let .string(tag)? = request.rpcParams.last,
                    let block = tag == "latest" ? latest : UInt64(tag.dropFirst(2), radix: 16)
                else { return .http(400, "{}") }
                guard block <= latest else {
                    return .http(200, #"{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"header not found"}}"#)
                }
                let used = usedAt.map { $0 <= block } ?? false
                return .rpcResult(used ? "\"0x8\"" : "\"0x7\"")
            default: return .http(400, "{}")
            }
        }
    }

    /// A ledger with one pending send (nonce 7), and an endpoint answering from `chain`, which
    /// the test changes between passes.
    struct Setup {
        let harness: RefreshHarness
        let record: TransactionRecord
        let chain: LockedValue<Chain>
        let server: ChainServer

        init(_ chain: Chain, status: StatusUpdate? = .pending) async throws {
            record = try StatusFixture.evmSend(nonce: 7, status: status)
            harness = try await RefreshHarness([record])
            let state = LockedValue(chain)
            self.chain = state
            let hash = record.txHash!
            server = try await ChainServer.start { request in state.get().answer(request, hash: hash) }
        }

        func pass(_ configure: (inout RefreshConfiguration) -> Void = { _ in }) async throws -> RefreshSummary {
            try await harness.refresher(["ethereum": try server.endpoint()], configure).refreshPending()
        }

        func advance(seconds: TimeInterval, blocks: UInt64 = 0) {
            harness.test.clock.advance(by: seconds)
            chain.update { $0.latest += blocks }
        }

        var current: TransactionRecord { get async throws { try await harness.record(record.id) } }
    }

    @Test func aNonceUsedFewerBlocksAgoThanRequiredInfersNothing() async throws {
        let setup = try await Setup(Chain(latest: 100, usedAt: 99, minedAt: nil))
        defer { Task { await setup.server.stop() } }
        for _ in 0..<3 {
            _ = try await setup.pass()
            setup.advance(seconds: 120)
        }
        #expect(try await setup.current.status == .pending, "used two blocks deep; three are required")
        let counts = await setup.server.requests.filter { $0.rpcMethod == "eth_getTransactionCount" }
        #expect(counts.first?.rpcParams == [.string(StatusFixture.sender), .string("0x62")], "latest 100 − 3 + 1")
    }

    @Test func aDropIsInferredOnlyWhenTwoChecksAMinuteApartAgree() async throws {
        let setup = try await Setup(Chain(latest: 100, usedAt: 90, minedAt: nil))
        defer { Task { await setup.server.stop() } }
        #expect(try await setup.pass().results.map(\.outcome) == [.unchanged])
        #expect(try await setup.current.status == .pending, "one check alone never infers a drop")
        setup.advance(seconds: 30, blocks: 2)
        _ = try await setup.pass()
        #expect(try await setup.current.status == .pending, "30 s after the first: not yet")
        setup.advance(seconds: 30, blocks: 2)
        #expect(try await setup.pass().results.map(\.outcome) == [.changed])
        let record = try await setup.current
        #expect(record.status == .failed && record.statusEvidence == .inference)
        #expect(record.failureReason == "dropped or replaced: nonce 7 was used by another transaction")
    }

    @Test func anAnswerThatDisagreesStartsTheWaitAgain() async throws {
        let setup = try await Setup(Chain(latest: 100, usedAt: 90, minedAt: nil))
        defer { Task { await setup.server.stop() } }
        _ = try await setup.pass()
        // A node that lags behind the nonce says nothing was used: the first sighting is forgotten.
        setup.chain.update { $0.latest = 91 }
        setup.advance(seconds: 50)
        _ = try await setup.pass()
        setup.chain.update { $0.latest = 100 }
        setup.advance(seconds: 20)
        _ = try await setup.pass()
        #expect(try await setup.current.status == .pending, "70 s after the first sighting, 20 s after the second")
        setup.advance(seconds: 60)
        _ = try await setup.pass()
        #expect(try await setup.current.status == .failed)
    }

    /// The issue's endpoint: behind a load balancer, one backend a block behind the other for
    /// a few requests. The lagging one has no receipt while the leading one reports the
    /// sender's nonce used (by this very transaction); the old rule failed it for good.
    @Test func backendsThatDisagreeNeverFailAMinedTransaction() async throws {
        let mined: UInt64 = 100
        let record = try StatusFixture.evmSend(nonce: 7)
        let harness = try await RefreshHarness([record])
        let served = LockedValue(0)
        let hash = record.txHash!
        let server = try await ChainServer.start { request in
            // The first six requests go to the lagging backend for the receipt and the hash,
            // and to the leading one for the rest; afterwards every backend has caught up.
            let index = served.update {
                $0 += 1
                return $0
            }
            let lagging = Chain(latest: mined - 1, usedAt: nil, minedAt: mined)
            let leading = Chain(latest: mined, usedAt: mined, minedAt: mined)
            let laggingMethods: Set = ["eth_getTransactionReceipt", "eth_getTransactionByHash"]
            let backend = index <= 6 && laggingMethods.contains(request.rpcMethod ?? "") ? lagging : leading
            return backend.answer(request, hash: hash)
        }
        defer { Task { await server.stop() } }
        let refresher = harness.refresher(["ethereum": try server.endpoint()]) { $0.evidence.inferenceInterval = 0 }
        _ = try await refresher.refreshPending()
        _ = try await refresher.refreshPending()
        #expect(try await harness.record(record.id).status == .pending, "the nonce is one block deep, not three")
        harness.test.clock.advance(by: 60)
        _ = try await refresher.refreshPending()
        let confirmed = try await harness.record(record.id)
        #expect(confirmed.status == .confirmed && confirmed.statusEvidence == .proof)
        #expect(confirmed.blockNumber == mined && confirmed.feePaid?.string == "0.00002488")
        #expect(confirmed.confirmedAt == Date(timeIntervalSince1970: TimeInterval(ChainResponses.blockTime)))
    }

    @Test func aLateReceiptOverturnsAnInferredDropAndIsCheckedForADay() async throws {
        let setup = try await Setup(Chain(latest: 100, usedAt: 90, minedAt: nil))
        defer { Task { await setup.server.stop() } }
        _ = try await setup.pass()
        setup.advance(seconds: 60)
        _ = try await setup.pass()
        #expect(try await setup.current.statusEvidence == .inference)

        // Still checked: nothing new, then the receipt the lagging node finally serves.
        setup.advance(seconds: 3600)
        #expect(try await setup.pass().results.map(\.record.id) == [setup.record.id])
        setup.chain.update { $0.minedAt = 95 }
        setup.advance(seconds: 3600)
        #expect(try await setup.pass().results.map(\.outcome) == [.changed])
        let record = try await setup.current
        #expect(record.status == .confirmed && record.statusEvidence == .proof && record.blockNumber == 95)
    }

    @Test func theWatchLoopDoesNotRunForInferredFailuresAlone() async throws {
        let setup = try await Setup(
            Chain(latest: 100, usedAt: 90, minedAt: nil),
            status: .inferredFailure(reason: "dropped")
        )
        defer { Task { await setup.server.stop() } }
        try await setup.harness.refresher(["ethereum": try setup.server.endpoint()]).watch()
        #expect(await setup.server.requests.isEmpty)
        #expect(try await setup.pass().results.count == 1, "while refreshPending checks it")
        let otherVault = try await setup.harness.refresher(["ethereum": try setup.server.endpoint()])
            .refreshPending(vault: "vault-2")
        #expect(otherVault.results.isEmpty)
    }

    @Test func anInferenceOlderThanADayIsNoLongerChecked() async throws {
        let setup = try await Setup(Chain(latest: 100, usedAt: 90, minedAt: nil))
        defer { Task { await setup.server.stop() } }
        _ = try await setup.pass()
        setup.advance(seconds: 60)
        _ = try await setup.pass()
        setup.advance(seconds: 24 * 3600 - 1)
        #expect(try await setup.pass().results.count == 1)
        setup.advance(seconds: 2)
        #expect(try await setup.pass().results.isEmpty)
        #expect(try await setup.pass { $0.evidence.recheckInferredFor = 2 * 24 * 3600 }.results.count == 1)
    }

    @Test func aReceiptIsConfirmedOnlyOnceItsBlockIsDeepEnough() async throws {
        let setup = try await Setup(Chain(latest: 101, usedAt: 100, minedAt: 100))
        defer { Task { await setup.server.stop() } }
        let threeDeep: (inout RefreshConfiguration) -> Void = {
            $0.evidenceByChain["ethereum"] = EvidencePolicy(confirmations: 3)
        }
        _ = try await setup.pass(threeDeep)
        #expect(try await setup.current.status == .pending, "two blocks deep")
        setup.advance(seconds: 15, blocks: 1)
        _ = try await setup.pass(threeDeep)
        #expect(try await setup.current.status == .confirmed)
        #expect(try await setup.current.blockNumber == 100)
    }

    @Test func aRollupsL1FeeIsPartOfTheFeePaid() throws {
        let receipt = try JSONValue.parse(
            Data(ChainResponses.receipt(Fixture.evmHash(1), status: "0x1", l1Fee: "0x2540be400").utf8)
        )
        // 1244 × 20 gwei + 10 gwei.
        #expect(try EVMStatusProvider.feePaid(receipt)?.string == "0.00002489")
        let huge = try JSONValue.parse(
            Data(#"{"gasUsed":"0xffffffffffffffff","effectiveGasPrice":"0xffffffffffffffff","l1Fee":"0x1"}"#.utf8)
        )
        // (2^64 − 1)² + 1 wei, exactly: past 64 bits, never through a Double.
        let fee = try EVMStatusProvider.feePaid(huge)?.string
        #expect(fee == "340282366920938463426.481119284349108226")
    }
}
