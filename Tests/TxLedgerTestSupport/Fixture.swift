import Foundation

@testable import TxLedger
@testable import TxLedgerCore

/// Records with every field set, and valid hashes and addresses made from small numbers.
enum Fixture {
    static let ethereum = try! Chain(parsing: "ethereum")
    static let start = Date(timeIntervalSince1970: 1_751_371_200)  // 2025-07-01T12:00:00Z

    static func evmHash(_ n: Int) -> String { "0x" + hex(n, digits: 64) }
    static func evmAddress(_ n: Int) -> String { "0x" + hex(n, digits: 40) }

    static func hex(_ n: Int, digits: Int) -> String {
        let s = String(n, radix: 16)
        return String(repeating: "0", count: digits - s.count) + s
    }

    static func send(
        vault: String = "vault-1",
        hash n: Int = 1,
        at date: Date = start,
        status: StatusUpdate? = nil,
        note: String? = "rent for July",
        labels: [String] = ["home", "rent"],
        hidden: Bool = false
    ) throws -> TransactionRecord {
        let details = try SendDetails(
            toAddress: evmAddress(0xBEEF),
            amount: try DecimalAmount("1234567890.123456789012345678"),
            token: try Token(symbol: "USDC", contract: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", decimals: 6),
            tokenLogo: "https://example.com/usdc.png",
            feeEstimate: try DecimalAmount("0.000021", field: "fee"),
            memo: "line one\nline two"
        )
        let facts = try TransactionFacts(
            vaultId: vault,
            chain: ethereum,
            timestamp: date,
            txHash: evmHash(n),
            fiatValue: try DecimalAmount("1234.56", field: "fiat"),
            fromAddress: evmAddress(0xCAFE),
            app: try AppMetadata(domain: "app.uniswap.org", uri: "https://app.uniswap.org/swap", scheme: "https"),
            method: "eth_sendTransaction",
            extras: ["replaces": evmHash(n + 0x1000)],
            details: .send(details)
        )
        return try TransactionRecord(
            facts: facts,
            status: status,
            lastCheckedAt: date.addingTimeInterval(60),
            note: note,
            labels: labels,
            hidden: hidden
        )
    }

    /// A confirmed THORChain swap; with `receipt`, its block and the fee it paid too (the golden
    /// payloads of formats before 4 have neither).
    static func swap(
        vault: String = "vault-1",
        hash n: Int = 2,
        at date: Date = start,
        receipt: Bool = true
    ) throws -> TransactionRecord {
        let thorchain = try Chain(parsing: "thorchain")
        let details = try SwapDetails(
            fromToken: try Token(symbol: "RUNE", contract: "THOR.RUNE", decimals: 8),
            fromAmount: try DecimalAmount("100.5"),
            fromChain: thorchain,
            fromTokenLogo: "https://example.com/rune.png",
            toToken: try Token(symbol: "BTC", decimals: 8),
            toAmount: try DecimalAmount("0.00123456"),
            minimumPayout: try DecimalAmount("0.0012"),
            toChain: try Chain(parsing: "bitcoin"),
            toTokenLogo: "https://example.com/btc.png",
            provider: try SwapProvider("thorchain"),
            route: "RUNE -> BTC via THORChain"
        )
        let facts = try TransactionFacts(
            vaultId: vault,
            chain: thorchain,
            timestamp: date,
            txHash: hex(n, digits: 64),
            fiatValue: try DecimalAmount("512.00"),
            fromAddress: "thor1qzd5jnzz8qm9wy2h8x8v9z3m4wv0q0vqx0r5ld",
            method: "deposit",
            details: .swap(details)
        )
        return try TransactionRecord(
            facts: facts,
            status: .confirmed(
                at: date.addingTimeInterval(30),
                block: receipt ? 21_000_123 : nil,
                feePaid: receipt ? try DecimalAmount("0.02", field: "feePaid") : nil
            )
        )
    }

    static func signature(
        vault: String = "vault-1",
        message: String = "Sign in to example.com\nNonce: 42",
        at date: Date = start
    ) throws -> TransactionRecord {
        let facts = try TransactionFacts(
            vaultId: vault,
            chain: try Chain(parsing: "0x1"),
            timestamp: date,
            txHash: nil,
            fromAddress: evmAddress(0xCAFE),
            app: try AppMetadata(domain: "example.com"),
            method: "personal_sign",
            details: .signature(
                try SignatureDetails(message: message, signature: "0x" + String(repeating: "ab", count: 65))
            )
        )
        return try TransactionRecord(facts: facts)
    }

    /// A small send with only the required fields.
    static func minimalSend(vault: String = "vault-1", hash n: Int, at date: Date = start) throws -> TransactionRecord {
        let details = try SendDetails(
            toAddress: evmAddress(1),
            amount: try DecimalAmount("1"),
            token: try Token(symbol: "ETH")
        )
        return try TransactionRecord(
            facts: try TransactionFacts(
                vaultId: vault,
                chain: ethereum,
                timestamp: date,
                txHash: evmHash(n),
                details: .send(details)
            )
        )
    }
}
