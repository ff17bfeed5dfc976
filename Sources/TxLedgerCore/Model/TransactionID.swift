import TxLedgerSodium

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
    /// The id's 16 bytes as two big-endian halves: hashed, compared and stored without text.
    private let high: UInt64
    private let low: UInt64

    /// The id as 32 lower-case hex digits.
    public var rawValue: String {
        String(unsafeUninitializedCapacity: 32) { text in
            for (offset, half) in [high, low].enumerated() {
                for digit in 0..<16 {
                    let nibble = UInt8(truncatingIfNeeded: half >> (60 - 4 * digit)) & 0xF
                    text[offset * 16 + digit] = (nibble < 10 ? UInt8(ascii: "0") : UInt8(ascii: "a") - 10) + nibble
                }
            }
            return 32
        }
    }

    /// Accepts 32 hex digits in either case.
    public init?(_ text: String) {
        var halves: (UInt64, UInt64) = (0, 0)
        var count = 0
        for digit in text.utf8 {
            guard count < 32, let nibble = Self.nibble(digit) else { return nil }
            if count < 16 { halves.0 = halves.0 << 4 | nibble } else { halves.1 = halves.1 << 4 | nibble }
            count += 1
        }
        guard count == 32 else { return nil }
        (high, low) = halves
    }

    /// The id from its 16 bytes (as the store keeps it); `nil` for any other count.
    package init?<Bytes: Collection<UInt8>>(bytes: Bytes) {
        // One call into contiguous bytes: from another module this is not specialized, and a
        // merge reads an id per stored row.
        guard
            let halves = bytes.withContiguousStorageIfAvailable(Self.halves)
                ?? Array(bytes).withUnsafeBufferPointer(Self.halves)
        else { return nil }
        (high, low) = halves
    }

    /// The two big-endian halves of 16 bytes; `nil` for any other count.
    private static func halves(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard bytes.count == 16 else { return nil }
        let raw = UnsafeRawBufferPointer(bytes)
        return (
            UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
            UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        )
    }

    /// The id's first 8 bytes as a big-endian integer (ids in increasing order have it in
    /// increasing order).
    package var leadingBits: UInt64 { high }

    /// The id's 16 bytes.
    package var bytes: [UInt8] {
        (0..<16).map { index in
            UInt8(truncatingIfNeeded: (index < 8 ? high : low) >> (56 - 8 * (index % 8)))
        }
    }

    /// Calls `body` with the id's 16 bytes, made on the stack.
    package func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { try body($0) }
    }

    private static func nibble(_ digit: UInt8) -> UInt64? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(digit - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt64(digit - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt64(digit - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The id of the send or swap with hash `hash` on `chain` in vault `vault`: what an app
    /// computes from the three values a broadcast or "complete" screen has, to find the record
    /// (`Ledger.transaction(vault:chain:hash:)`). The hash may be in any case, with or without
    /// `0x`, as `Chain.normalizedTxHash(_:)` accepts it.
    /// - Throws: `LedgerError.invalidInput` for a vault id that is not one, or a hash that is
    ///   not one of the chain's.
    public static func forTransaction(vault: String, chain: Chain, hash: String) throws -> TransactionID {
        forCanonicalHash(
            vault: try TextField.identifier.validate(vault, field: "vault"),
            chain: chain,
            hash: try chain.normalizedTxHash(hash)
        )
    }

    /// The id of the transaction `hash` of `chain` in `vault`, both already validated and the
    /// hash in its canonical form (`Chain.normalizedTxHash`).
    static func forCanonicalHash(vault: String, chain: Chain, hash: String) -> TransactionID {
        derive("txledger.tx.v1", [vault, chain.id, hash])
    }

    /// Inlined where it is called, so that the caller's array of parts is made on the stack
    /// (`perf stat -e probe_libc:malloc`: one allocation a record read, gone).
    @inline(__always)
    static func derive(_ domain: String, _ parts: [String]) -> TransactionID {
        let count = parts.reduce(4 + domain.utf8.count) { $0 + 4 + $1.utf8.count }
        // The 16 bytes of the hash, as the id's two big-endian halves.
        var digest: (UInt64, UInt64) = (0, 0)
        // The input on the stack, not in an array: every record read derives its id, and this
        // was one of the 8.6 allocations of decoding a stored record.
        withUnsafeTemporaryAllocation(byteCount: count, alignment: 1) { input in
            // No function here captures the offset: one that did made each access to it checked
            // at run time (`swift_beginAccess`, 16 a record, 2.8% of `inspect`'s instructions).
            var offset = append(domain, to: input, at: 0)
            for part in parts { offset = append(part, to: input, at: offset) }
            withUnsafeMutableBytes(of: &digest) { Sodium.genericHash(UnsafeRawBufferPointer(input), into: $0) }
        }
        return TransactionID(high: UInt64(bigEndian: digest.0), low: UInt64(bigEndian: digest.1))
    }

    /// Writes `part` into `input` at `offset` as `derive` hashes it (its UTF-8 length as a
    /// big-endian u32, then its bytes) and returns the offset after it.
    private static func append(_ part: String, to input: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        var part = part
        let length = part.utf8.count
        input.storeBytes(of: UInt32(length).bigEndian, toByteOffset: offset, as: UInt32.self)
        part.withUTF8 { utf8 in
            UnsafeMutableRawBufferPointer(rebasing: input[offset + 4..<offset + 4 + length])
                .copyMemory(from: UnsafeRawBufferPointer(utf8))
        }
        return offset + 4 + length
    }

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    public var description: String { rawValue }
    /// The order of the hex texts, which is the order of the bytes.
    public static func < (lhs: TransactionID, rhs: TransactionID) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }
}
