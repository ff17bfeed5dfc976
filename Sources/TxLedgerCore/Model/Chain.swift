/// A blockchain a transaction was made on.
///
/// Written as a canonical identifier: a well-known name (`ethereum`, `bitcoin`, `solana`, ...;
/// see `Chain.wellKnown`), `eip155:<chain id>` for any EVM chain, or `custom:<name>` for any
/// other chain. Parsing also accepts EVM chain ids in hex (`0x1`, as wallets report them),
/// `eip155:` ids of well-known chains, and a few common aliases (`eth`, `btc`, ...); all of
/// them resolve to the same canonical chain, so they derive the same transaction ids.
public struct Chain: Hashable, Sendable, CustomStringConvertible {
    /// How a chain's transaction hashes and addresses look; decides validation and normalisation.
    public enum Family: String, Sendable, CaseIterable {
        /// Ethereum and EVM-compatible chains: `0x` + 64 hex hash, `0x` + 40 hex addresses.
        case evm
        /// Bitcoin-like chains: 64 hex hash.
        case utxo
        /// Solana: base58 signature.
        case solana
        /// Cosmos SDK chains, THORChain, MayaChain: 64 hex hash, shown upper case.
        case cosmos
        /// Custom chains: any printable hash without spaces.
        case other
    }

    /// Canonical identifier, e.g. `ethereum`, `eip155:324`, `custom:my-chain`.
    public let id: String
    public let family: Family
    /// The EIP-155 chain id, for EVM chains.
    public let evmChainID: UInt64?
    /// Human name, e.g. `BNB Smart Chain`.
    public let displayName: String
    /// The explorer's transaction page up to the hash, which ends it, when known (every
    /// explorer in the catalog puts the hash last).
    let explorerPrefix: String?
    /// The symbol of the asset its fees are paid in (`ETH` on Base), when known: the fee
    /// currency of the tax tools' CSVs (queries.md).
    public let nativeAsset: String?

    init(
        id: String,
        family: Family,
        evmChainID: UInt64? = nil,
        displayName: String,
        explorer: String?,
        nativeAsset: String? = nil
    ) {
        self.id = id
        self.family = family
        self.evmChainID = evmChainID
        self.displayName = displayName
        self.explorerPrefix = explorer
        self.nativeAsset = nativeAsset
    }

    public var description: String { id }

    /// Parses any accepted spelling (see the type's documentation).
    /// - Throws: `LedgerError.invalidInput` for an unknown name or a malformed identifier.
    public init(parsing text: String) throws {
        // A chain as a ledger writes it (its id, in lower case) is found without lowercasing.
        if let known = Self.byName[text] {
            self = known
            return
        }
        let key = text.lowercased()
        if let known = Self.byName[key] {
            self = known
        } else if key.hasPrefix("eip155:") {
            self = try Self.evm(decimal: String(key.dropFirst("eip155:".count)), original: text)
        } else if key.hasPrefix("0x") {
            let digits = key.utf8.dropFirst(2)
            guard digits.allSatisfy({ Self.isDigit($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }),
                let id = UInt64(key.dropFirst(2), radix: 16), id > 0
            else { throw Self.syntaxError(text) }
            self = Self.evm(chainID: id)
        } else if text.hasPrefix("custom:") {
            let name = String(text.dropFirst("custom:".count))
            guard Self.isValidCustomName(name) else { throw Self.syntaxError(text) }
            self = Chain(id: "custom:\(name)", family: .other, displayName: name, explorer: nil)
        } else {
            throw LedgerError.invalidInput(
                field: "chain",
                reason:
                    "unknown chain '\(text.prefix(40))'; use a known name (ethereum, bitcoin, solana, ...), eip155:<id> for an EVM chain, or custom:<name>"
            )
        }
    }

    /// The EVM chain with this EIP-155 id: the well-known one if there is one, else
    /// `eip155:<id>` with the generic Blockscan explorer.
    public static func evm(chainID: UInt64) -> Chain {
        if let known = byEVMChainID[chainID] { return known }
        return Chain(
            id: "eip155:\(chainID)",
            family: .evm,
            evmChainID: chainID,
            displayName: "EVM chain \(chainID)",
            explorer: "https://blockscan.com/tx/"
        )
    }

    private static func evm(decimal: String, original: String) throws -> Chain {
        guard decimal.utf8.allSatisfy(isDigit), let id = UInt64(decimal), id > 0 else {
            throw syntaxError(original)
        }
        return evm(chainID: id)
    }

    private static func syntaxError(_ text: String) -> LedgerError {
        .invalidInput(
            field: "chain",
            reason:
                "'\(text.prefix(40))' is not a chain identifier (eip155:<decimal id>, 0x<hex id> or custom:<name of letters, digits, . _ ->)"
        )
    }

    /// `0` to `9` (no sign: `UInt64("+5")` would take one).
    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isValidCustomName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                    || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") || b == UInt8(ascii: ".")
            }
    }

    /// The explorer page of a transaction on this chain, if this chain has a known explorer.
    public func explorerURL(txHash: String) -> String? {
        explorerPrefix.map { $0 + txHash }
    }

    /// Validates a transaction hash for this chain's family and returns its canonical form:
    /// EVM `0x` + lower-case hex (the `0x` is added when missing), UTXO lower-case hex, Cosmos
    /// upper-case hex, Solana base58 unchanged, custom chains unchanged.
    public func normalizedTxHash(_ hash: String) throws -> String {
        func fail(_ expected: String) -> LedgerError {
            .invalidInput(
                field: RecordField.txHash.key,
                reason: "'\(hash.prefix(100))' is not a \(displayName) transaction hash (expected \(expected))"
            )
        }
        switch family {
        case .evm:
            if Self.isHex(hash, prefixed: true, count: 64, letters: .lower) { return hash }
            let digits = hash.lowercased().hasPrefix("0x") ? String(hash.dropFirst(2)) : hash
            guard Self.isHex(digits, count: 64) else { throw fail("0x and 64 hex digits") }
            return "0x" + digits.lowercased()
        case .utxo:
            if Self.isHex(hash, count: 64, letters: .lower) { return hash }
            guard Self.isHex(hash, count: 64) else { throw fail("64 hex digits") }
            return hash.lowercased()
        case .cosmos:
            if Self.isHex(hash, count: 64, letters: .upper) { return hash }
            let digits = hash.lowercased().hasPrefix("0x") ? String(hash.dropFirst(2)) : hash
            guard Self.isHex(digits, count: 64) else { throw fail("64 hex digits") }
            return digits.uppercased()
        case .solana:
            guard (64...90).contains(hash.utf8.count), Self.allBytes(of: hash, Self.isBase58) else {
                throw fail("a base58 signature of 64 to 90 characters")
            }
            return hash
        case .other:
            guard (1...256).contains(hash.utf8.count), Self.allBytes(of: hash, Self.isPrintable) else {
                throw fail("1 to 256 printable characters without spaces")
            }
            return hash
        }
    }

    /// Whether `s` is `count` hex digits whose letters are in `letters` (both cases by default),
    /// after `0x` if `prefixed`. One case only tells a hash already in its canonical form, as
    /// every stored one is: no new text needs making.
    private static func isHex(_ s: String, prefixed: Bool = false, count: Int, letters: Letters = .both) -> Bool {
        // A plain loop over the bytes, each classed without a branch (half of this check's
        // samples were on a branch on digit or letter, which random hex takes at random).
        let (upperAllowed, lowerAllowed): (UInt8, UInt8) = (letters != .lower ? 1 : 0, letters != .upper ? 1 : 0)
        func check(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
            let prefix = prefixed ? 2 : 0
            guard utf8.count == prefix + count else { return false }
            if prefixed, utf8[0] != UInt8(ascii: "0") || utf8[1] != UInt8(ascii: "x") { return false }
            var other: UInt8 = 0
            for index in prefix..<utf8.count {
                let b = utf8[index]
                let digit: UInt8 = b &- 0x30 < 10 ? 1 : 0
                let lower: UInt8 = b &- 0x61 < 6 ? lowerAllowed : 0
                let upper: UInt8 = b &- 0x41 < 6 ? upperAllowed : 0
                other |= 1 &- (digit | lower | upper)
            }
            return other == 0
        }
        return s.utf8.withContiguousStorageIfAvailable(check) ?? Array(s.utf8).withUnsafeBufferPointer(check)
    }

    private enum Letters { case lower, upper, both }

    /// Whether every UTF-8 byte of `s` passes `test`, read from the string's own storage
    /// (a byte at a time through `utf8` cost a twentieth of decoding a record).
    private static func allBytes(of s: String, _ test: (UInt8) -> Bool) -> Bool {
        s.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(test) } ?? s.utf8.allSatisfy(test)
    }

    /// A printable ASCII character other than a space.
    private static func isPrintable(_ b: UInt8) -> Bool { b > 0x20 && b < 0x7F }

    private static func isBase58(_ b: UInt8) -> Bool {
        // 1-9, A-Z, a-z without 0, O, I, l.
        switch b {
        case 0x31...0x39: return true
        case 0x41...0x5A: return b != UInt8(ascii: "I") && b != UInt8(ascii: "O")
        case 0x61...0x7A: return b != UInt8(ascii: "l")
        default: return false
        }
    }
}

extension Chain {
    /// Validates an address for this chain: `0x` + 40 hex digits on EVM chains (any case, kept
    /// as given so checksummed addresses survive), otherwise 1 to 256 printable characters.
    public func validatedAddress(_ address: String, field: String) throws -> String {
        if family == .evm {
            guard Self.isHex(address, prefixed: true, count: 40) else {
                throw LedgerError.invalidInput(
                    field: field,
                    reason: "'\(address.prefix(60))' is not an EVM address (0x and 40 hex digits)"
                )
            }
            return address
        }
        guard (1...256).contains(address.utf8.count), Self.allBytes(of: address, Self.isPrintable) else {
            throw LedgerError.invalidInput(
                field: field,
                reason: "'\(address.prefix(60))' is not an address (1 to 256 printable characters without spaces)"
            )
        }
        return address
    }
}
