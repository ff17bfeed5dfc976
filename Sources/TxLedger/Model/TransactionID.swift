/// The identifier of a record: 32 lower-case hex digits, derived from what the record is so
/// that two devices recording the same transaction produce the same id (and a merge keeps one
/// record). The derivation is specified in `Specs/schema.md`:
///
/// - transaction: BLAKE2b-128 of `lp("txledger.tx.v1") lp(vault) lp(chain id) lp(normalized hash)`
/// - signature: BLAKE2b-128 of `lp("txledger.sig.v1") lp(vault) lp(chain id) lp(method)
///   lp(signer or "") lp(message) lp(signature or "")`
///
/// where `lp(s)` is the UTF-8 byte count of `s` as a 4-byte big-endian integer followed by the bytes.
public struct TransactionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Accepts 32 hex digits in either case.
    public init?(_ text: String) {
        guard text.utf8.count == 32, text.allSatisfy(\.isHexDigit) else { return nil }
        rawValue = text.lowercased()
    }

    init(uncheckedRawValue: String) { rawValue = uncheckedRawValue }

    /// The id from its 16 bytes (as the store keeps it).
    init(bytes: [UInt8]) {
        rawValue = bytes.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The id's 16 bytes.
    var bytes: [UInt8] {
        var hex = rawValue
        return hex.withUTF8 { utf8 in
            var bytes = [UInt8](repeating: 0, count: utf8.count / 2)
            for index in bytes.indices {
                bytes[index] = Self.nibble(utf8[2 * index]) << 4 | Self.nibble(utf8[2 * index + 1])
            }
            return bytes
        }
    }

    private static func nibble(_ digit: UInt8) -> UInt8 {
        digit <= UInt8(ascii: "9") ? digit - UInt8(ascii: "0") : digit - UInt8(ascii: "a") + 10
    }

    /// The id of the send or swap with hash `hash` on `chain` in vault `vault`: what an app
    /// computes from the three values a broadcast or "complete" screen has, to find the record
    /// (`Ledger.transaction(vault:chain:hash:)`). The hash may be in any case, with or without
    /// `0x`, as `Chain.normalizedTxHash(_:)` accepts it.
    /// - Throws: `LedgerError.invalidInput` for a vault id that is not one, or a hash that is
    ///   not one of the chain's.
    public static func forTransaction(vault: String, chain: Chain, hash: String) throws -> TransactionID {
        derive(
            "txledger.tx.v1",
            [try TextField.identifier.validate(vault, field: "vault"), chain.id, try chain.normalizedTxHash(hash)]
        )
    }

    static func derive(_ domain: String, _ parts: [String]) -> TransactionID {
        var input: [UInt8] = []
        for part in [domain] + parts {
            let bytes = Array(part.utf8)
            let n = UInt32(bytes.count)
            input += [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
            input += bytes
        }
        return TransactionID(bytes: Sodium.genericHash(input, outputLength: 16))
    }

    public var description: String { rawValue }
    public static func < (lhs: TransactionID, rhs: TransactionID) -> Bool { lhs.rawValue < rhs.rawValue }
}
