import TxLedgerSodium

/// A 32-byte secret in printable form (a sync key's `TXLK1-…`, a device seed's `TXLS1-…`): the
/// prefix, then the bytes and the first 5 bytes of their BLAKE2b-128, in Crockford base32, in
/// groups of 5 joined by `-` (Specs/bundle-format.md, "Keys and passphrases in memory and on
/// disk"). The text never passes through Swift strings, which cannot be wiped.
package struct PrintableSecret: Sendable {
    package static let byteCount = 32
    static let checksumCount = 5
    static let groupSize = 5
    /// Symbols after the prefix: (32 + 5) bytes, 296 bits, padded with zero bits to 300.
    static let symbolCount = CrockfordBase32.symbolCount(forBytes: byteCount + checksumCount)

    let prefix: [UInt8]

    package init(prefix: String) { self.prefix = Array(prefix.utf8) }

    /// The printable form of `secret` and a line break, as secret bytes.
    package func printableBytes(_ secret: SecretBytes) -> SecretBytes {
        let data = Self.withChecksum(secret)
        let length = prefix.count + Self.symbolCount + Self.symbolCount / Self.groupSize + 1
        return data.withUnsafeBytes { data in
            SecretBytes(count: length) { out in
                var position = 0
                func put(_ byte: UInt8) {
                    out[position] = byte
                    position += 1
                }
                prefix.forEach(put)
                for index in 0..<Self.symbolCount {
                    if index % Self.groupSize == 0 { put(UInt8(ascii: "-")) }
                    put(CrockfordBase32.alphabet[Int(CrockfordBase32.symbol(at: index, of: data))])
                }
                put(UInt8(ascii: "\n"))
            }
        }
    }

    /// The secret a printable form holds.
    /// - Throws: `BundleError.invalidKey` saying what is wrong: the prefix, the number of
    ///   symbols, a byte that is no symbol, or a checksum that does not match (a mistyped
    ///   symbol).
    package func parse(_ text: UnsafeRawBufferPointer) throws -> SecretBytes {
        var symbols = [UInt8]()
        symbols.reserveCapacity(prefix.count + Self.symbolCount)
        defer { symbols.withUnsafeMutableBytes(Sodium.wipe) }
        for byte in text where !CrockfordBase32.isSeparator(byte) {
            symbols.append(CrockfordBase32.upperCased(byte))
        }
        guard symbols.starts(with: prefix) else {
            throw BundleError.invalidKey("it does not start with \(String(decoding: prefix, as: UTF8.self))")
        }
        symbols.removeFirst(prefix.count)
        guard symbols.count == Self.symbolCount else {
            throw BundleError.invalidKey(
                "it has \(symbols.count) symbols after the prefix instead of \(Self.symbolCount)"
            )
        }
        for index in symbols.indices {
            guard let value = CrockfordBase32.value(of: symbols[index]) else {
                throw BundleError.invalidKey("symbol \(index + 1) is not a base32 character")
            }
            symbols[index] = value
        }
        let data = SecretBytes(count: Self.byteCount + Self.checksumCount) { CrockfordBase32.unpack(symbols, into: $0) }
        let padding = symbols[Self.symbolCount - 1] & 0b1111
        let secret = data.withUnsafeBytes {
            SecretBytes(copying: UnsafeRawBufferPointer(rebasing: $0.prefix(Self.byteCount)))
        }
        let expected = Self.withChecksum(secret)
        guard padding == 0,
            data.withUnsafeBytes({ data in expected.withUnsafeBytes { Sodium.constantTimeEqual(data, $0) } })
        else {
            throw BundleError.invalidKey("its checksum does not match; a character is mistyped")
        }
        return secret
    }

    /// The secret followed by the first 5 bytes of its BLAKE2b-128.
    private static func withChecksum(_ secret: SecretBytes) -> SecretBytes {
        secret.withUnsafeBytes { key in
            let checksum = Sodium.genericHash(key, outputLength: 16).prefix(checksumCount)
            return SecretBytes(count: byteCount + checksumCount) { out in
                out.copyMemory(from: key)
                UnsafeMutableRawBufferPointer(rebasing: out[byteCount...]).copyBytes(from: checksum)
            }
        }
    }
}
