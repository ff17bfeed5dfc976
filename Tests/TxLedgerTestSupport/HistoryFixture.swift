import Foundation

@testable import TxLedger
@testable import TxLedgerCore

/// A varied history for query tests: sends, swaps and signatures in two vaults, on EVM, UTXO,
/// Solana and Cosmos-family chains, in every status, some hidden, with notes and memos, over
/// about six weeks, with shared timestamps. `matches` is the filter rules of Specs/queries.md
/// written again, independently of the SQL, over records in memory.
enum HistoryFixture {
    static let start = Date(timeIntervalSince1970: 1_751_371_200)  // 2025-07-01T12:00:00Z
    static let base58 = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")

    static func records(count: Int = 160) throws -> [TransactionRecord] {
        try (0..<count).map(record)
    }

    static func record(_ i: Int) throws -> TransactionRecord {
        let vault = i % 3 == 0 ? "savings" : "main"
        // Every fifth record shares the timestamp of the one before it.
        let slot = i % 5 == 4 ? i - 1 : i
        let time = start.addingTimeInterval(Double(slot) * 6.5 * 3600)
        let statuses: [StatusUpdate] = [
            try StatusUpdate(.broadcasted), .pending, .confirmed(at: time.addingTimeInterval(60)),
            .failed(reason: "reverted"),
        ]
        let status = statuses[(i / 2) % 4]
        let note: String? = [nil, "rent for July", "Coffee, 50% off", nil, "gift for Ana"][i % 5]
        let facts: TransactionFacts
        switch i % 7 {
        case 0, 3:
            facts = try swap(i, vault: vault, time: time)
        case 5:
            facts = try TransactionFacts(
                vaultId: vault,
                chain: try Chain(parsing: "ethereum"),
                timestamp: time,
                txHash: nil,
                fromAddress: Fixture.evmAddress(0xCAFE),
                app: i % 2 == 0 ? try AppMetadata(domain: "example.com") : nil,
                method: "personal_sign",
                details: .signature(try SignatureDetails(message: "Sign in #\(i)"))
            )
        default:
            facts = try send(i, vault: vault, time: time)
        }
        return try TransactionRecord(
            facts: facts,
            status: status,
            note: note,
            labels: i % 4 == 0 ? ["tax"] : [],
            hidden: i % 11 == 10
        )
    }

    private static func send(_ i: Int, vault: String, time: Date) throws -> TransactionFacts {
        let chain: Chain
        let hash: String
        let to: String
        let token: Token
        switch i % 4 {
        case 0:
            (chain, hash, to) = (try Chain(parsing: "bitcoin"), Fixture.hex(i, digits: 64), "bc1qrecipient\(i)")
            token = try Token(symbol: "BTC", decimals: 8)
        case 1:
            (chain, hash, to) = (try Chain(parsing: "solana"), solanaSignature(i), "So1anaRecipient\(i)")
            token = try Token(symbol: "SOL", decimals: 9)
        case 2:
            (chain, hash, to) = (try Chain(parsing: "arbitrum"), Fixture.evmHash(i), Fixture.evmAddress(0xBEEF00 + i))
            token = try Token(symbol: "USDC", contract: "0xaf88d065e77c8cc2239327c5edb3a432268e5831", decimals: 6)
        default:
            (chain, hash, to) = (try Chain(parsing: "ethereum"), Fixture.evmHash(i), Fixture.evmAddress(0xBEEF00 + i))
            token = try Token(symbol: "ETH", decimals: 18)
        }
        let details = try SendDetails(
            toAddress: to,
            amount: try DecimalAmount("\(i).5"),
            token: token,
            memo: i % 6 == 1 ? "invoice \(i)" : nil
        )
        return try TransactionFacts(
            vaultId: vault,
            chain: chain,
            timestamp: time,
            txHash: hash,
            fiatValue: try DecimalAmount("\(i * 3).25"),
            fromAddress: chain.family == .evm ? Fixture.evmAddress(0xCAFE) : nil,
            details: .send(details)
        )
    }

    private static func swap(_ i: Int, vault: String, time: Date) throws -> TransactionFacts {
        let thorchain = try Chain(parsing: "thorchain")
        let ethereum = try Chain(parsing: "ethereum")
        let details: SwapDetails
        let chain: Chain
        let hash: String
        if i % 2 == 0 {
            (chain, hash) = (thorchain, Fixture.hex(i, digits: 64).uppercased())
            details = try SwapDetails(
                fromToken: try Token(symbol: "RUNE", contract: "THOR.RUNE"),
                fromAmount: try DecimalAmount("\(i)"),
                fromChain: thorchain,
                toToken: try Token(symbol: "BTC"),
                toAmount: try DecimalAmount("0.00\(i)"),
                toChain: try Chain(parsing: "bitcoin"),
                provider: try SwapProvider(i % 4 == 0 ? "thorchain" : "MayaChain")
            )
        } else {
            (chain, hash) = (ethereum, Fixture.evmHash(i))
            details = try SwapDetails(
                fromToken: try Token(symbol: "ETH"),
                fromAmount: try DecimalAmount("1.\(i)"),
                fromChain: ethereum,
                toToken: try Token(symbol: "USDC", contract: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"),
                toAmount: try DecimalAmount("\(i)00"),
                toChain: ethereum,
                provider: try SwapProvider(i % 3 == 0 ? "1inch" : "LiFi")
            )
        }
        return try TransactionFacts(
            vaultId: vault,
            chain: chain,
            timestamp: time,
            txHash: hash,
            fromAddress: chain == ethereum ? Fixture.evmAddress(0xCAFE) : "thor1sender\(i)",
            details: .swap(details)
        )
    }

    /// 88 base58 characters, different for each `i`.
    static func solanaSignature(_ i: Int) -> String {
        var tail = ""
        var n = i
        repeat {
            tail.append(base58[n % 58])
            n /= 58
        } while n > 0
        return String(repeating: "5", count: 88 - tail.count) + tail
    }

    /// Whether `r` is in the history `filter` describes (Specs/queries.md, "Filters").
    static func matches(_ r: TransactionRecord, _ filter: HistoryFilter, byTab: Bool = true) -> Bool {
        if let vault = filter.vault, r.vaultId != vault { return false }
        if byTab, let kind = filter.tab.kind, r.kind != kind { return false }
        if !filter.includeHidden && r.hidden { return false }
        if !filter.chains.isEmpty && !filter.chains.contains(r.chain) { return false }
        if !filter.tokens.isEmpty {
            var names: [String?] = []
            switch r.details {
            case let .send(s): names = [s.token.symbol, s.token.contract]
            case let .swap(s): names = [s.fromToken.symbol, s.fromToken.contract, s.toToken.symbol, s.toToken.contract]
            case .signature: break
            }
            let wanted = Set(filter.tokens.map { $0.lowercased() })
            if !names.compactMap({ $0?.lowercased() }).contains(where: wanted.contains) { return false }
        }
        if let since = filter.since, r.timestamp < since { return false }
        if let until = filter.until, r.timestamp >= until { return false }
        if !filter.statuses.contains(r.status) { return false }
        let inProgress = !r.status.isTerminal && r.kind != .signature
        if filter.stage == .inProgress && !inProgress || filter.stage == .completed && inProgress { return false }
        if !filter.providers.isEmpty {
            guard case let .swap(s) = r.details,
                filter.providers.contains(where: { $0.lowercased() == s.provider.name.lowercased() })
            else { return false }
        }
        if let search = filter.search?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased(), !search.isEmpty {
            let bare = search.hasPrefix("0x") ? String(search.dropFirst(2)) : search
            var to: String?
            var memo: String?
            if case let .send(s) = r.details { (to, memo) = (s.toAddress, s.memo) }
            let prefixed = [r.txHash, r.fromAddress, to].compactMap { $0?.lowercased() }
                .contains { !bare.isEmpty && ($0.hasPrefix(bare) || $0.hasPrefix("0x" + bare)) }
            let contained = [memo, r.note].compactMap { $0?.lowercased() }.contains { $0.contains(search) }
            if !prefixed && !contained { return false }
        }
        return true
    }
}
