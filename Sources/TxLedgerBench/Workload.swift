import Foundation
import TxLedger

/// Realistic sends and swaps of one vault, generated deterministically from their index: EVM
/// (Ethereum, Arbitrum, Base), Bitcoin and Solana sends; 1inch, LiFi and THORChain swaps;
/// about 0.1% still pending, 2% failed, the rest confirmed; a few notes, labels and dApps. Index
/// `i` is broadcast at `start + i * spacing`, so records arrive in time order over three years.
struct Workload {
    let vault: String
    /// How many records the history spans (sets the spacing of their timestamps).
    let count: Int
    /// Makes the hashes of this workload differ from another's with the same indexes.
    var salt: UInt64 = 0

    static let start = Date(timeIntervalSince1970: 1_672_531_200)  // 2023-01-01T00:00:00Z
    static let span: TimeInterval = 3 * 365 * 24 * 3600

    private static let ethereum = try! Chain(parsing: "ethereum")
    private static let arbitrum = try! Chain(parsing: "arbitrum")
    private static let base = try! Chain(parsing: "base")
    private static let bitcoin = try! Chain(parsing: "bitcoin")
    private static let solana = try! Chain(parsing: "solana")
    private static let thorchain = try! Chain(parsing: "thorchain")
    private static let apps = [
        try! AppMetadata(domain: "app.uniswap.org", uri: "https://app.uniswap.org"),
        try! AppMetadata(domain: "opensea.io", uri: "https://opensea.io"),
        try! AppMetadata(domain: "app.aave.com", uri: "https://app.aave.com", scheme: "wc"),
    ]
    private static let base58 = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")

    /// Record `i` as the wallet recorded it, with its status as of the end of the history.
    func record(_ i: Int) throws -> TransactionRecord {
        try record(i, status: status(i), note: i % 33 == 5 ? "rent for \(i % 12 + 1)/2025" : nil)
    }

    /// Record `i` with the given status and note (the merge scenario's conflicting edits).
    func record(_ i: Int, status: StatusUpdate, note: String?) throws -> TransactionRecord {
        var random = SplitMix64(seed: UInt64(i) &* 0x9E37_79B9 ^ salt)
        let time = Self.start.addingTimeInterval(Self.span * Double(i) / Double(max(count, 1)))
        let facts =
            switch i % 10 {
            case 0, 1, 2: try evmSend(i, time: time, random: &random)
            case 3: try bitcoinSend(time: time, random: &random)
            case 4, 5: try solanaSend(time: time, random: &random)
            case 6, 7: try evmSwap(i, time: time, random: &random)
            default: try thorchainSwap(i, time: time, random: &random)
            }
        return try TransactionRecord(facts: facts, status: status, note: note, labels: i % 97 == 3 ? ["tax"] : [])
    }

    /// 0.1% pending, 2% failed, the rest confirmed half a minute after broadcast.
    func status(_ i: Int) throws -> StatusUpdate {
        if i % 1000 == 999 { return .pending }
        if i % 50 == 7 { return .failed(reason: "execution reverted") }
        return .confirmed(at: Self.start.addingTimeInterval(Self.span * Double(i) / Double(max(count, 1)) + 30))
    }

    private func evmSend(_ i: Int, time: Date, random: inout SplitMix64) throws -> TransactionFacts {
        let chain = [Self.ethereum, Self.arbitrum, Self.base][i % 3]
        let usdc = i % 2 == 0
        let token =
            usdc
            ? try Token(symbol: "USDC", contract: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", decimals: 6)
            : try Token(symbol: "ETH", decimals: 18)
        let amount = usdc ? "\(random.below(5000)).\(random.below(100))" : "0.\(random.digits(6))"
        let details = try SendDetails(
            toAddress: "0x" + random.hex(40),
            amount: try DecimalAmount(amount),
            token: token,
            feeEstimate: try DecimalAmount("0.000\(random.digits(5))")
        )
        return try TransactionFacts(
            vaultId: vault,
            chain: chain,
            timestamp: time,
            txHash: "0x" + random.hex(64),
            fiatValue: try DecimalAmount("\(random.below(5000)).\(random.digits(2))"),
            fromAddress: "0x52908400098527886e0f7030069857d2e4169ee7",
            nonce: UInt64(i),
            app: i % 7 == 0 ? Self.apps[i % 3] : nil,
            method: "eth_sendTransaction",
            details: .send(details)
        )
    }

    private func bitcoinSend(time: Date, random: inout SplitMix64) throws -> TransactionFacts {
        let details = try SendDetails(
            toAddress: "bc1q" + random.hex(38),
            amount: try DecimalAmount("0.\(random.digits(8))"),
            token: try Token(symbol: "BTC", decimals: 8),
            feeEstimate: try DecimalAmount("0.0000\(random.digits(4))")
        )
        return try TransactionFacts(
            vaultId: vault,
            chain: Self.bitcoin,
            timestamp: time,
            txHash: random.hex(64),
            fiatValue: try DecimalAmount("\(random.below(20000)).\(random.digits(2))"),
            fromAddress: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
            details: .send(details)
        )
    }

    private func solanaSend(time: Date, random: inout SplitMix64) throws -> TransactionFacts {
        let details = try SendDetails(
            toAddress: random.base58(44, from: Self.base58),
            amount: try DecimalAmount("\(random.below(40)).\(random.digits(9))"),
            token: try Token(symbol: "SOL", decimals: 9),
            memo: random.below(10) == 0 ? "invoice \(random.below(1000))" : nil
        )
        return try TransactionFacts(
            vaultId: vault,
            chain: Self.solana,
            timestamp: time,
            txHash: random.base58(88, from: Self.base58),
            fiatValue: try DecimalAmount("\(random.below(3000)).\(random.digits(2))"),
            fromAddress: "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV",
            details: .send(details)
        )
    }

    private func evmSwap(_ i: Int, time: Date, random: inout SplitMix64) throws -> TransactionFacts {
        let details = try SwapDetails(
            fromToken: try Token(symbol: "ETH", decimals: 18),
            fromAmount: try DecimalAmount("1.\(random.digits(6))"),
            fromChain: Self.ethereum,
            toToken: try Token(symbol: "USDC", contract: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", decimals: 6),
            toAmount: try DecimalAmount("\(random.below(4000)).\(random.digits(6))"),
            minimumPayout: try DecimalAmount("\(random.below(4000)).\(random.digits(6))"),
            provider: i % 2 == 0 ? .oneInch : .lifi,
            route: "ETH -> USDC via Uniswap v3"
        )
        return try TransactionFacts(
            vaultId: vault,
            chain: Self.ethereum,
            timestamp: time,
            txHash: "0x" + random.hex(64),
            fiatValue: try DecimalAmount("\(random.below(4000)).\(random.digits(2))"),
            fromAddress: "0x52908400098527886e0f7030069857d2e4169ee7",
            nonce: UInt64(i),
            method: "eth_sendTransaction",
            details: .swap(details)
        )
    }

    private func thorchainSwap(_ i: Int, time: Date, random: inout SplitMix64) throws -> TransactionFacts {
        let details = try SwapDetails(
            fromToken: try Token(symbol: "RUNE", contract: "THOR.RUNE", decimals: 8),
            fromAmount: try DecimalAmount("\(random.below(900)).\(random.digits(8))"),
            fromChain: Self.thorchain,
            toToken: try Token(symbol: "BTC", decimals: 8),
            toAmount: try DecimalAmount("0.\(random.digits(8))"),
            minimumPayout: try DecimalAmount("0.\(random.digits(8))"),
            toChain: Self.bitcoin,
            provider: .thorchain
        )
        return try TransactionFacts(
            vaultId: vault,
            chain: Self.thorchain,
            timestamp: time,
            txHash: random.hex(64).uppercased(),
            fiatValue: try DecimalAmount("\(random.below(9000)).\(random.digits(2))"),
            fromAddress: "thor1dheycdevq39qlkxs2a6wuuzyn4aqxhve4qxtxt",
            details: .swap(details)
        )
    }
}
