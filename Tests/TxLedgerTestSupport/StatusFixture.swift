import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStatus

/// Pending sends and swaps on each provider's chains, and a ledger with a refresher around them.
enum StatusFixture {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    static let sender = Fixture.evmAddress(0xCAFE)

    static func evmSend(
        _ n: Int = 1,
        nonce: UInt64? = nil,
        status: StatusUpdate? = .pending,
        age: TimeInterval = 120,
        chain: String = "ethereum"
    ) throws -> TransactionRecord {
        let details = try SendDetails(
            toAddress: Fixture.evmAddress(1),
            amount: try DecimalAmount("0.5"),
            token: try Token(symbol: "ETH")
        )
        return try TransactionRecord(
            facts: try TransactionFacts(
                vaultId: "vault-1",
                chain: try Chain(parsing: chain),
                timestamp: now - age,
                txHash: Fixture.evmHash(n),
                fromAddress: sender,
                nonce: nonce,
                details: .send(details)
            ),
            status: status
        )
    }

    /// A bitcoin send; `spends` are the outputs it spends (`TXID:VOUT`), for RBF detection.
    static func bitcoinSend(
        _ n: Int = 1,
        status: StatusUpdate? = .pending,
        age: TimeInterval = 120,
        spends: [String] = []
    ) throws -> TransactionRecord {
        try send(
            chain: "bitcoin",
            hash: Fixture.hex(n, digits: 64),
            to: "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh",
            symbol: "BTC",
            status: status,
            age: age,
            extras: spends.isEmpty ? [:] : ["spends": spends.joined(separator: ",")]
        )
    }

    static let solanaSignature =
        "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW"

    static func solanaSend(status: StatusUpdate? = .pending) throws -> TransactionRecord {
        try send(
            chain: "solana",
            hash: solanaSignature,
            to: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
            symbol: "SOL",
            status: status,
            age: 120
        )
    }

    static func cosmosSend(_ n: Int = 1, status: StatusUpdate? = .pending) throws -> TransactionRecord {
        try send(
            chain: "cosmos",
            hash: Fixture.hex(n, digits: 64),
            to: "cosmos1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu",
            symbol: "ATOM",
            status: status,
            age: 120
        )
    }

    static func thorSwap(
        _ n: Int = 2,
        provider: SwapProvider = .thorchain,
        chain: String = "thorchain",
        status: StatusUpdate? = .pending
    ) throws -> TransactionRecord {
        let from = try Chain(parsing: chain)
        let details = try SwapDetails(
            fromToken: try Token(symbol: "RUNE"),
            fromAmount: try DecimalAmount("100.5"),
            fromChain: from,
            toToken: try Token(symbol: "BTC", decimals: 8),
            toAmount: try DecimalAmount("0.00123456"),
            toChain: try Chain(parsing: "bitcoin"),
            provider: provider
        )
        let hash = from.family == .evm ? Fixture.evmHash(n) : Fixture.hex(n, digits: 64)
        return try TransactionRecord(
            facts: try TransactionFacts(
                vaultId: "vault-1",
                chain: from,
                timestamp: now - 120,
                txHash: hash,
                details: .swap(details)
            ),
            status: status
        )
    }

    private static func send(
        chain: String,
        hash: String,
        to: String,
        symbol: String,
        status: StatusUpdate?,
        age: TimeInterval,
        extras: [String: String] = [:]
    ) throws -> TransactionRecord {
        let details = try SendDetails(toAddress: to, amount: try DecimalAmount("1.5"), token: try Token(symbol: symbol))
        return try TransactionRecord(
            facts: try TransactionFacts(
                vaultId: "vault-1",
                chain: try Chain(parsing: chain),
                timestamp: now - age,
                txHash: hash,
                extras: extras,
                details: .send(details)
            ),
            status: status
        )
    }
}

/// A ledger holding some records, a clock the test moves, and refreshers over them.
struct RefreshHarness {
    let test: TestLedger
    let clock: ManualRefreshClock
    var ledger: Ledger { test.ledger }

    init(_ records: [TransactionRecord]) async throws {
        self.init(existing: try await TestLedger(clock: ManualClock(StatusFixture.now)))
        for record in records { _ = try await test.ledger.record(record) }
    }

    /// Refreshers over a ledger a test already made.
    init(existing test: TestLedger) {
        self.test = test
        clock = ManualRefreshClock(test.clock)
    }

    func refresher(
        _ endpoints: [String: StatusEndpoint],
        _ configure: (inout RefreshConfiguration) -> Void = { _ in }
    ) -> StatusRefresher {
        var configuration = RefreshConfiguration()
        configuration.endpoints = endpoints
        // The suite's one deadline: requests wait on a loaded core and on servers that hold them
        // (ConcurrencyProbe); a 30 s timeout was reached on one loaded core. Tests of timeouts
        // set their own, against a server that never answers.
        configuration.timeout = TestLimits.hang
        configure(&configuration)
        return StatusRefresher(ledger: ledger, configuration: configuration, clock: clock)
    }

    func record(_ id: TransactionID) async throws -> TransactionRecord {
        try #require(try await ledger.transaction(id: id))
    }
}
