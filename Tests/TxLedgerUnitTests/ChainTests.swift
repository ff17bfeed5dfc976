import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

struct ChainTests {
    @Test(arguments: ["ethereum", "Ethereum", "eth", "eip155:1", "0x1", "0X1"])
    func spellingsOfEthereumResolveToOneChain(_ text: String) throws {
        let chain = try Chain(parsing: text)
        #expect(chain.id == "ethereum")
        #expect(chain.family == .evm)
        #expect(chain.evmChainID == 1)
    }

    @Test func evmChainIDsResolveToWellKnownChains() throws {
        #expect(try Chain(parsing: "0x2105").id == "base")
        #expect(try Chain(parsing: "eip155:42161").id == "arbitrum")
        #expect(try Chain(parsing: "0x38").id == "bsc")
    }

    @Test func unknownEVMChainsAreAddressableByChainID() throws {
        let chain = try Chain(parsing: "eip155:999999")
        #expect(chain.id == "eip155:999999")
        #expect(try Chain(parsing: "0xf423f") == chain)
        #expect(chain.explorerURL(txHash: "0xab") == "https://blockscan.com/tx/0xab")
    }

    @Test func customChainsKeepTheirName() throws {
        let chain = try Chain(parsing: "custom:My-Chain_2")
        #expect(chain.id == "custom:My-Chain_2")
        #expect(chain.family == .other)
        #expect(chain.explorerURL(txHash: "x") == nil)
    }

    @Test(arguments: [
        "etherum", "", "eip155:", "eip155:abc", "eip155:0", "eip155:-1", "0x", "0xzz", "0x0",
        "custom:", "custom:a b", "custom:a/b", "bitcoin mainnet", "eip155:+100", "0x+5", "0x-5", "eip155: 1",
        "Custom:x", "CUSTOM:x",
    ])
    func rejectsUnknownOrMalformedChains(_ text: String) {
        #expect(throws: LedgerError.self) { try Chain(parsing: text) }
    }

    @Test func everyWellKnownChainParsesByItsIDAndHasAnExplorer() throws {
        for chain in Chain.wellKnown {
            #expect(try Chain(parsing: chain.id) == chain)
            #expect(chain.explorerURL(txHash: "h")?.hasPrefix("https://") == true)
        }
        #expect(Set(Chain.wellKnown.map(\.id)).count == Chain.wellKnown.count)
    }

    @Test func explorerURLs() throws {
        #expect(try Chain(parsing: "ethereum").explorerURL(txHash: "0xab") == "https://etherscan.io/tx/0xab")
        #expect(try Chain(parsing: "bitcoin").explorerURL(txHash: "ab") == "https://mempool.space/tx/ab")
        #expect(try Chain(parsing: "solana").explorerURL(txHash: "5x") == "https://solscan.io/tx/5x")
        #expect(try Chain(parsing: "thorchain").explorerURL(txHash: "AB") == "https://runescan.io/tx/AB")
    }

    @Test func normalizesHashesPerFamily() throws {
        let hex = String(repeating: "aB", count: 32)
        #expect(try Chain(parsing: "ethereum").normalizedTxHash("0x" + hex) == "0x" + hex.lowercased())
        #expect(try Chain(parsing: "ethereum").normalizedTxHash(hex) == "0x" + hex.lowercased())
        #expect(try Chain(parsing: "ethereum").normalizedTxHash("0X" + hex) == "0x" + hex.lowercased())
        #expect(try Chain(parsing: "bitcoin").normalizedTxHash(hex) == hex.lowercased())
        #expect(try Chain(parsing: "cosmos").normalizedTxHash(hex) == hex.uppercased())
        let signature = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW"
        #expect(try Chain(parsing: "solana").normalizedTxHash(signature) == signature)
        #expect(try Chain(parsing: "custom:x").normalizedTxHash("Tx-1") == "Tx-1")
    }

    @Test func rejectsHashesOfTheWrongShape() throws {
        let short = String(repeating: "a", count: 63)
        #expect(throws: LedgerError.self) { try Chain(parsing: "ethereum").normalizedTxHash("0x" + short) }
        #expect(throws: LedgerError.self) {
            try Chain(parsing: "ethereum").normalizedTxHash("0x" + String(repeating: "g", count: 64))
        }
        #expect(throws: LedgerError.self) {
            try Chain(parsing: "bitcoin").normalizedTxHash("0x" + String(repeating: "a", count: 64))
        }
        #expect(throws: LedgerError.self) {
            try Chain(parsing: "solana").normalizedTxHash(String(repeating: "0", count: 88))
        }
        #expect(throws: LedgerError.self) { try Chain(parsing: "custom:x").normalizedTxHash("has space") }
        #expect(throws: LedgerError.self) { try Chain(parsing: "custom:x").normalizedTxHash("") }
    }

    @Test func validatesEVMAddresses() throws {
        let chain = try Chain(parsing: "base")
        let checksummed = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
        #expect(try chain.validatedAddress(checksummed, field: "to") == checksummed)
        #expect(throws: LedgerError.self) { try chain.validatedAddress("0x123", field: "to") }
        #expect(throws: LedgerError.self) {
            try chain.validatedAddress("5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", field: "to")
        }
        #expect(
            try Chain(parsing: "bitcoin").validatedAddress("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", field: "to")
                .hasPrefix("bc1")
        )
    }
}
