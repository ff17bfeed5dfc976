/// Crockford base32, as the printable forms write bytes (a sync key, a device's public
/// identity, a fingerprint): the bytes read as one big-endian bit string, padded with zero bits
/// to a whole symbol, 5 bits per symbol from `0-9A-Z` without `I L O U`. Read in any case;
/// `O` reads as `0`, `I` and `L` as `1`; dashes and white space are ignored.
package enum CrockfordBase32 {
    /// The 32 symbols, by value.
    package static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// How many symbols write `byteCount` bytes.
    package static func symbolCount(forBytes byteCount: Int) -> Int { (byteCount * 8 + 4) / 5 }

    /// The 5-bit symbol `index` of `data` read as one big-endian bit string padded with zeros.
    package static func symbol(at index: Int, of data: UnsafeRawBufferPointer) -> UInt8 {
        var value: UInt8 = 0
        for bit in index * 5..<index * 5 + 5 {
            let byte = bit / 8 < data.count ? data[bit / 8] : 0
            value = value << 1 | (byte >> (7 - UInt8(bit % 8)) & 1)
        }
        return value
    }

    /// The value of a symbol (upper case), `nil` for a byte that is none.
    package static func value(of symbol: UInt8) -> UInt8? {
        switch symbol {
        case UInt8(ascii: "O"): 0
        case UInt8(ascii: "I"), UInt8(ascii: "L"): 1
        default: alphabet.firstIndex(of: symbol).map(UInt8.init)
        }
    }

    /// Whether a byte of a printed form is a separator that reading skips.
    package static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The upper-case form of an ASCII letter, any other byte as it is.
    package static func upperCased(_ byte: UInt8) -> UInt8 { byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte }

    /// Writes the bits of symbol values into `out` (zeroed first), big-endian; bits past its end
    /// are dropped.
    package static func unpack(_ values: some Collection<UInt8>, into out: UnsafeMutableRawBufferPointer) {
        out.initializeMemory(as: UInt8.self, repeating: 0)
        for (index, value) in values.enumerated() {
            for offset in 0..<5 where value >> (4 - UInt8(offset)) & 1 == 1 {
                let bit = index * 5 + offset
                if bit / 8 < out.count { out[bit / 8] |= 1 << (7 - UInt8(bit % 8)) }
            }
        }
    }

    /// `bytes` as symbols in groups of `groupSize` joined by `-`, after `prefix` and a `-`
    /// (public data only: the text is an ordinary string).
    package static func encode(_ bytes: [UInt8], prefix: String, groupSize: Int) -> String {
        bytes.withUnsafeBytes { data in
            var text = prefix
            for index in 0..<symbolCount(forBytes: data.count) {
                if index % groupSize == 0, !(prefix.isEmpty && index == 0) { text += "-" }
                text.unicodeScalars.append(Unicode.Scalar(alphabet[Int(symbol(at: index, of: data))]))
            }
            return text
        }
    }

    /// The `byteCount` bytes a printed form writes after `prefix`, or why it does not: a
    /// missing prefix, a wrong number of symbols, a byte that is no symbol, or padding bits
    /// that are not zero.
    package static func decode(_ text: String, prefix: String, byteCount: Int) -> Result<[UInt8], DecodingFailure> {
        var symbols = text.utf8.filter { !isSeparator($0) }.map(upperCased)
        let prefixBytes = Array(prefix.utf8)
        guard symbols.starts(with: prefixBytes) else { return .failure(.prefix) }
        symbols.removeFirst(prefixBytes.count)
        let count = symbolCount(forBytes: byteCount)
        guard symbols.count == count else { return .failure(.symbolCount(symbols.count, expected: count)) }
        var values = [UInt8]()
        values.reserveCapacity(count)
        for (index, symbol) in symbols.enumerated() {
            guard let value = value(of: symbol) else { return .failure(.notASymbol(position: index + 1)) }
            values.append(value)
        }
        let paddingBits = count * 5 - byteCount * 8
        guard values[count - 1] & (1 << paddingBits - 1) == 0 else { return .failure(.padding) }
        var bytes = [UInt8](repeating: 0, count: byteCount)
        bytes.withUnsafeMutableBytes { unpack(values, into: $0) }
        return .success(bytes)
    }

    /// Why a printed form does not decode.
    package enum DecodingFailure: Error, Equatable {
        case prefix
        case symbolCount(Int, expected: Int)
        case notASymbol(position: Int)
        case padding
    }
}
