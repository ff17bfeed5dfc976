import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStatus
@testable import TxLedgerTestSupport

/// The refresher: problems that must not change a status, routing, offline mode, the lattice,
/// and the bounds on requests in flight.
@Suite struct StatusRefreshTests {
    enum Problem: String, CaseIterable, Sendable {
        case rateLimited, serverError, malformedBody, timeout, refused

        var expected: StatusCheckError {
            switch self {
            case .rateLimited: .rateLimited
            case .serverError: .serverError(status: 500)
            case .malformedBody: .malformedResponse("the body is not JSON")
            case .timeout: .timeout
            case .refused: .unreachable
            }
        }

        var reply: ChainServer.Reply {
            switch self {
            case .rateLimited: .http(429, #"{"error":"Too Many Requests"}"#)
            case .serverError: .http(500, "<html><body>500 Internal Server Error</body></html>")
            case .malformedBody: .http(200, "<html><body>Bad gateway</body></html>")
            case .timeout: .hang
            case .refused: .http(200, "{}")  // not reached: the endpoint is a closed port
            }
        }
    }

    static let chains: [(key: String, make: @Sendable () throws -> TransactionRecord)] = [
        ("ethereum", { try StatusFixture.evmSend(nonce: 3) }), ("bitcoin", { try StatusFixture.bitcoinSend() }),
        ("solana", { try StatusFixture.solanaSend() }), ("cosmos", { try StatusFixture.cosmosSend() }),
        ("thorchain", { try StatusFixture.thorSwap() }),
    ]

    @Test(arguments: Problem.allCases, 0..<5)
    func aProblemNeverChangesAStatusButMovesLastCheckedAt(problem: Problem, chain: Int) async throws {
        let (key, make) = Self.chains[chain]
        let record = try make()
        let harness = try await RefreshHarness([record])
        let before = try await harness.record(record.id)
        let server = try await ChainServer.start { _ in problem.reply }
        var endpoint = try server.endpoint()
        if problem == .refused {
            await server.stop()
            endpoint = try StatusEndpoint(url: URL(string: "http://127.0.0.1:\(server.url.port!)/v3/SECRET-API-KEY")!)
        }
        harness.clock.advance(to: StatusFixture.now + 42)
        let summary = try await harness.refresher([key: endpoint]) { if problem == .timeout { $0.timeout = 0.5 } }
            .refreshPending()
        await server.stop()

        let result = try #require(summary.results.first)
        #expect(result.outcome == .notChecked(problem.expected), "\(key)")
        #expect(summary.notChecked.count == 1)
        #expect(summary.changed.isEmpty)
        let after = try await harness.record(record.id)
        #expect(after.status == before.status)
        #expect(after.lastCheckedAt == StatusFixture.now + 42)
        #expect(after.confirmedAt == nil && after.failureReason == nil)
        #expect(!"\(result.outcome)".contains("SECRET"))
    }

    @Test func aJSONRPCErrorIsAProblemNotAnAnswer() async throws {
        let record = try StatusFixture.evmSend()
        let harness = try await RefreshHarness([record])
        let server = try await ChainServer.start { _ in .http(200, ChainResponses.rateLimitError) }
        let summary = try await harness.refresher(["ethereum": try server.endpoint()]).refreshPending()
        await server.stop()
        #expect(
            summary.results.first?.outcome
                == .notChecked(
                    .rpcError(code: -32005, message: "daily request count exceeded, request rate limited")
                )
        )
        #expect(try await harness.record(record.id).status == .pending)
    }

    @Test func aConfirmationTimeTheLedgerCannotHoldIsAMalformedResponse() async throws {
        let record = try StatusFixture.evmSend()
        let harness = try await RefreshHarness([record])
        let server = try await ChainServer.start { request in
            request.rpcMethod == "eth_getBlockByNumber"
                ? .rpcResult(#"{"number":"0x1b4","timestamp":"0xffffffffffff"}"#)
                : .rpcResult(ChainResponses.receipt(record.txHash!, status: "0x1"))
        }
        let summary = try await harness.refresher(["ethereum": try server.endpoint()]).refreshPending()
        await server.stop()
        #expect(
            summary.results.map(\.outcome) == [.notChecked(.malformedResponse("a confirmation time outside 1970–9999"))]
        )
        #expect(try await harness.record(record.id).status == .pending)
    }

    /// An app's provider that fails with an error of its own.
    struct FailingProvider: StatusProvider {
        struct Failure: Error { let detail = "https://rpc.example/SECRET" }
        func endpointKey(for record: TransactionRecord) -> String? { record.chain.id == "solana" ? "solana" : nil }
        func check(_ record: TransactionRecord, with client: EndpointClient) async throws -> ChainStatus {
            throw Failure()
        }
    }

    @Test func anAppProviderThatThrowsOtherErrorsDoesNotEndThePass() async throws {
        let solana = try StatusFixture.solanaSend()
        let bitcoin = try StatusFixture.bitcoinSend()
        let harness = try await RefreshHarness([solana, bitcoin])
        let server = try await ChainServer.start { _ in .http(200, ChainResponses.esploraConfirmed) }
        let summary = try await harness.refresher(["solana": try server.endpoint(), "bitcoin": try server.endpoint()]) {
            $0.providers.insert(FailingProvider(), at: 0)
            $0.maxInFlight = 0  // counts as 1
        }.refreshPending()
        await server.stop()
        let outcomes = Dictionary(uniqueKeysWithValues: summary.results.map { ($0.record.id, $0.outcome) })
        #expect(outcomes == [solana.id: .notChecked(.providerFailed("Failure")), bitcoin.id: .changed])
        #expect(!"\(summary.results.map(\.outcome))".contains("SECRET"))
        #expect(try await harness.record(solana.id).lastCheckedAt != nil)
    }

    @Test func aCadenceMustMoveForward() {
        #expect(throws: LedgerError.self) { try RefreshCadence(steps: [(60, 0)], finalInterval: 30) }
        #expect(throws: LedgerError.self) { try RefreshCadence(steps: [(600, 15), (60, 5)], finalInterval: 30) }
        #expect(throws: LedgerError.self) { try RefreshCadence(steps: [], finalInterval: -1) }
    }

    @Test func endpointsAreShownWithoutTheirPathOrQuery() throws {
        let endpoint = try StatusEndpoint(parsing: "https://user:pass@mainnet.example.io:8545/v3/SECRET?key=SECRET")
        #expect("\(endpoint)" == "https://mainnet.example.io:8545")
        #expect(throws: LedgerError.self) { try StatusEndpoint(parsing: "ftp://example.com") }
        #expect(throws: LedgerError.self) { try StatusEndpoint(parsing: "example.com:8545") }
    }

    @Test func onlyPendingSendsAndSwapsAreCheckedAndEachNeedsAnEndpoint() async throws {
        let pending = try StatusFixture.evmSend(1)
        let confirmed = try StatusFixture.evmSend(2, status: .confirmed())
        let signature = try Fixture.signature()
        let solana = try StatusFixture.solanaSend()
        let custom = try TransactionRecord(
            facts: try TransactionFacts(
                vaultId: "vault-1",
                chain: try Chain(parsing: "custom:mychain"),
                timestamp: StatusFixture.now,
                txHash: "abc",
                details: .send(
                    try SendDetails(toAddress: "me", amount: try DecimalAmount("1"), token: try Token(symbol: "X"))
                )
            ),
            status: .pending
        )
        let harness = try await RefreshHarness([pending, confirmed, signature, solana, custom])
        let server = try await ChainServer.start { _ in .rpcResult("null") }
        let summary = try await harness.refresher(["ethereum": try server.endpoint()]).refreshPending()
        let requests = await server.requests
        await server.stop()

        #expect(Set(requests.compactMap { $0.rpcParams.first?.string }) == [pending.txHash!])
        let outcomes = Dictionary(uniqueKeysWithValues: summary.results.map { ($0.record.id, $0.outcome) })
        #expect(
            outcomes == [
                pending.id: .unchanged, solana.id: .notChecked(.noEndpoint("solana")),
                custom.id: .notChecked(.noProvider),
            ]
        )
        #expect(summary.stillPending.map(\.record.id) == [pending.id])
        #expect(try await harness.record(solana.id).lastCheckedAt == nil)
    }

    @Test func offlineMakesNoRequestUntilTheNetworkIsBack() async throws {
        let record = try StatusFixture.bitcoinSend()
        let harness = try await RefreshHarness([record])
        let server = try await ChainServer.start { _ in .http(200, ChainResponses.esploraConfirmed) }
        let refresher = harness.refresher(["bitcoin": try server.endpoint()])
        refresher.setNetworkAvailable(false)
        let offline = try await refresher.refreshPending()
        #expect(offline.results.map(\.outcome) == [.notChecked(.offline)])
        #expect(await server.requests.isEmpty)
        #expect(try await harness.record(record.id).lastCheckedAt == nil)

        refresher.setNetworkAvailable(true)
        let online = try await refresher.refreshPending()
        await server.stop()
        #expect(online.changed.map(\.record.status) == [.confirmed])
        #expect(await server.requests.count == 1)
    }

    // MARK: - Through the lattice

    @Test func aLatePendingAnswerAfterAConfirmationChangesNothing() async throws {
        let record = try StatusFixture.bitcoinSend()
        let harness = try await RefreshHarness([record])
        let answers = Answers([ChainResponses.esploraConfirmed, ChainResponses.esploraUnconfirmed])
        let server = try await ChainServer.start { _ in .http(200, await answers.next()) }
        let refresher = harness.refresher(["bitcoin": try server.endpoint()])
        let first = try await refresher.refreshPending()
        #expect(first.changed.map(\.record.status) == [.confirmed])
        // Still in the pass's list (read before), the lagging node's "pending" arrives.
        let late = try await refresher.runner.check([record])
        await server.stop()
        #expect(late.results.map(\.outcome) == [.unchanged])
        #expect(try await harness.record(record.id).status == .confirmed)
        #expect(try await harness.record(record.id).confirmedAt == Date(timeIntervalSince1970: 1_690_168_629))
    }

    @Test func twoDevicesRefreshingTheSameTransactionConverge() async throws {
        let record = try StatusFixture.evmSend()
        let laptop = try await RefreshHarness([record])
        let phone = try await RefreshHarness([record])
        let server = try await ChainServer.start { request in
            request.rpcMethod == "eth_getBlockByNumber"
                ? .rpcResult(ChainResponses.block) : .rpcResult(ChainResponses.receipt(record.txHash!, status: "0x1"))
        }
        phone.clock.advance(to: StatusFixture.now + 7)
        for device in [laptop, phone] {
            _ = try await device.refresher(["ethereum": try server.endpoint()]).refreshPending()
        }
        await server.stop()
        _ = try await laptop.ledger.merge(try await phone.ledger.changes(vault: "vault-1"))
        _ = try await phone.ledger.merge(try await laptop.ledger.changes(vault: "vault-1"))
        let onLaptop = try await laptop.record(record.id)
        let onPhone = try await phone.record(record.id)
        #expect(onLaptop == onPhone)
        #expect(onLaptop.status == .confirmed)
        #expect(onLaptop.confirmedAt == Date(timeIntervalSince1970: TimeInterval(ChainResponses.blockTime)))
        // lastCheckedAt travels with the winning facts register (crdt.md), here either device's.
        #expect([StatusFixture.now, StatusFixture.now + 7].contains(onLaptop.lastCheckedAt))
    }

    // MARK: - Requests in flight

    /// The refresher bounds each request by `RefreshConfiguration.timeout`; URLSession's idle
    /// timeout (60 s by default) must not cut a longer one short: a check held back by the
    /// bound below once timed out after a minute on one loaded core.
    @Test func theSessionsOwnTimeoutsNeverCutARequestShort() {
        let configuration = URLSessionTransport().session.configuration
        #expect(configuration.timeoutIntervalForRequest == URLSessionTransport.sessionTimeout)
        #expect(configuration.timeoutIntervalForResource == URLSessionTransport.sessionTimeout)
        #expect(URLSessionTransport.sessionTimeout > TestLimits.hang)
    }

    // A client that never reaches the bound leaves the probe holding its requests: the time
    // limit fails the test then.
    @Test(.timeLimit(.minutes(5)), arguments: [(5, 10, nil as Int?, 5), (5, 5, 2, 2), (3, 3, nil, 3)])
    func requestsInFlightNeverExceedTheBound(
        total: Int,
        perEndpoint: Int,
        endpointBound: Int?,
        expected: Int
    ) async throws {
        let records = try (1...12).map { try StatusFixture.bitcoinSend($0) }
        let harness = try await RefreshHarness(records)
        let probe = ConcurrencyProbe(bound: expected, expected: records.count)
        let server = try await ChainServer.start { _ in
            await probe.enter()
            await probe.leave()
            return .http(200, ChainResponses.esploraUnconfirmed)
        }
        let summary = try await harness.refresher(["bitcoin": try server.endpoint(maxInFlight: endpointBound)]) {
            $0.maxInFlight = total
            $0.maxInFlightPerEndpoint = perEndpoint
        }.refreshPending()
        await server.stop()
        // A record not checked says why: on one loaded core a handler held past the server's
        // deadline was answered 500 (ChainServer now waits as long as the suite).
        #expect(summary.stillPending.count == 12, "not checked: \(summary.notChecked.map(\.outcome))")
        // Answered in any order, listed in the pending list's order (newest first).
        #expect(summary.results.map(\.record.id) == (try await harness.ledger.pendingRecords()).map(\.id))
        #expect(await probe.maxInFlight == expected)
        #expect(await probe.completed == 12)
    }
}

/// Answers in turn, the last one for ever.
actor Answers {
    private var bodies: [String]
    init(_ bodies: [String]) { self.bodies = bodies }
    func next() -> String { bodies.count > 1 ? bodies.removeFirst() : bodies[0] }
}
