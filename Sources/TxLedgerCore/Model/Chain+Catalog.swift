extension Chain {
    /// The chains the reference wallets support, with their explorers.
    public static let wellKnown: [Chain] = [
        evmChain("ethereum", 1, "Ethereum", "https://etherscan.io/tx/", "ETH"),
        evmChain("arbitrum", 42161, "Arbitrum One", "https://arbiscan.io/tx/", "ETH"),
        evmChain("optimism", 10, "OP Mainnet", "https://optimistic.etherscan.io/tx/", "ETH"),
        evmChain("base", 8453, "Base", "https://basescan.org/tx/", "ETH"),
        evmChain("polygon", 137, "Polygon", "https://polygonscan.com/tx/", "POL"),
        evmChain("bsc", 56, "BNB Smart Chain", "https://bscscan.com/tx/", "BNB"),
        evmChain("avalanche", 43114, "Avalanche C-Chain", "https://snowtrace.io/tx/", "AVAX"),
        evmChain("blast", 81457, "Blast", "https://blastscan.io/tx/", "ETH"),
        evmChain("zksync", 324, "zkSync Era", "https://era.zksync.network/tx/", "ETH"),
        evmChain("linea", 59144, "Linea", "https://lineascan.build/tx/", "ETH"),
        evmChain("scroll", 534352, "Scroll", "https://scrollscan.com/tx/", "ETH"),
        evmChain("mantle", 5000, "Mantle", "https://mantlescan.xyz/tx/", "MNT"),
        evmChain("cronos", 25, "Cronos", "https://cronoscan.com/tx/", "CRO"),
        evmChain("sepolia", 11_155_111, "Sepolia", "https://sepolia.etherscan.io/tx/", "ETH"),
        Chain(
            id: "bitcoin",
            family: .utxo,
            displayName: "Bitcoin",
            explorer: "https://mempool.space/tx/",
            nativeAsset: "BTC"
        ),
        Chain(
            id: "litecoin",
            family: .utxo,
            displayName: "Litecoin",
            explorer: "https://litecoinspace.org/tx/",
            nativeAsset: "LTC"
        ),
        Chain(
            id: "dogecoin",
            family: .utxo,
            displayName: "Dogecoin",
            explorer: "https://blockchair.com/dogecoin/transaction/",
            nativeAsset: "DOGE"
        ),
        Chain(
            id: "bitcoin-cash",
            family: .utxo,
            displayName: "Bitcoin Cash",
            explorer: "https://blockchair.com/bitcoin-cash/transaction/",
            nativeAsset: "BCH"
        ),
        Chain(
            id: "dash",
            family: .utxo,
            displayName: "Dash",
            explorer: "https://blockchair.com/dash/transaction/",
            nativeAsset: "DASH"
        ),
        Chain(
            id: "zcash",
            family: .utxo,
            displayName: "Zcash",
            explorer: "https://blockchair.com/zcash/transaction/",
            nativeAsset: "ZEC"
        ),
        Chain(
            id: "solana",
            family: .solana,
            displayName: "Solana",
            explorer: "https://solscan.io/tx/",
            nativeAsset: "SOL"
        ),
        Chain(
            id: "thorchain",
            family: .cosmos,
            displayName: "THORChain",
            explorer: "https://runescan.io/tx/",
            nativeAsset: "RUNE"
        ),
        Chain(
            id: "mayachain",
            family: .cosmos,
            displayName: "MayaChain",
            explorer: "https://www.explorer.mayachain.info/tx/",
            nativeAsset: "CACAO"
        ),
        Chain(
            id: "cosmos",
            family: .cosmos,
            displayName: "Cosmos Hub",
            explorer: "https://www.mintscan.io/cosmos/tx/",
            nativeAsset: "ATOM"
        ),
        Chain(
            id: "osmosis",
            family: .cosmos,
            displayName: "Osmosis",
            explorer: "https://www.mintscan.io/osmosis/tx/",
            nativeAsset: "OSMO"
        ),
        Chain(
            id: "kujira",
            family: .cosmos,
            displayName: "Kujira",
            explorer: "https://www.mintscan.io/kujira/tx/",
            nativeAsset: "KUJI"
        ),
        Chain(
            id: "dydx",
            family: .cosmos,
            displayName: "dYdX Chain",
            explorer: "https://www.mintscan.io/dydx/tx/",
            nativeAsset: "DYDX"
        ),
        Chain(id: "noble", family: .cosmos, displayName: "Noble", explorer: "https://www.mintscan.io/noble/tx/"),
        Chain(
            id: "terra",
            family: .cosmos,
            displayName: "Terra",
            explorer: "https://www.mintscan.io/terra/tx/",
            nativeAsset: "LUNA"
        ),
    ]

    /// Shorter spellings accepted by `Chain(parsing:)`.
    static let aliases: [String: String] = [
        "eth": "ethereum", "arb": "arbitrum", "op": "optimism", "matic": "polygon", "pol": "polygon",
        "bnb": "bsc", "avax": "avalanche", "btc": "bitcoin", "ltc": "litecoin", "doge": "dogecoin",
        "bch": "bitcoin-cash", "sol": "solana", "rune": "thorchain", "cacao": "mayachain",
        "atom": "cosmos", "osmo": "osmosis", "kuji": "kujira",
    ]

    static let byName: [String: Chain] = {
        var table = Dictionary(uniqueKeysWithValues: wellKnown.map { ($0.id, $0) })
        for (alias, name) in aliases { table[alias] = table[name] }
        return table
    }()

    static let byEVMChainID: [UInt64: Chain] = Dictionary(
        uniqueKeysWithValues: wellKnown.compactMap { chain in chain.evmChainID.map { ($0, chain) } }
    )

    private static func evmChain(
        _ id: String,
        _ chainID: UInt64,
        _ name: String,
        _ explorer: String,
        _ nativeAsset: String
    ) -> Chain {
        Chain(
            id: id,
            family: .evm,
            evmChainID: chainID,
            displayName: name,
            explorer: explorer,
            nativeAsset: nativeAsset
        )
    }
}
