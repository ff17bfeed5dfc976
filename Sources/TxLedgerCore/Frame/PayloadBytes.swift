import Foundation

/// The primitive encodings of a bundle's payload (Specs/bundle-format.md, "Payload"):
///
/// - `uvarint`: unsigned LEB128, at most 10 bytes, minimal (no needless trailing zero group);
/// - `svarint`: a signed integer zigzag-mapped (`(n << 1) ^ (n >> 63)`), then as a uvarint;
/// - `text`: its UTF-8 byte count as a uvarint, then the bytes (valid UTF-8);
/// - `id64`: 8 bytes, big-endian.
extension Array where Element == UInt8 {
    package mutating func appendUVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        append(UInt8(value))
    }

    package mutating func appendSVarint(_ value: Int64) {
        appendUVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    package mutating func appendText(_ text: String) {
        appendUVarint(UInt64(text.utf8.count))
        append(contentsOf: text.utf8)
    }
}

/// Where decoding reads bytes from: a frame in memory, or the decrypted stream.
package protocol PayloadSource {
    /// The next byte. - Throws: `BundleError.malformedContent` at the end.
    mutating func readByte() throws -> UInt8
    /// The next `count` bytes. - Throws: `BundleError.malformedContent` if fewer remain.
    mutating func readBytes(_ count: Int) throws -> [UInt8]
    /// Calls `body` with the next `count` bytes (as `readBytes` reads them, without a copy
    /// where the source can lend them).
    mutating func withNextBytes<Result>(
        _ count: Int,
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) throws -> Result
    /// The next uvarint (`readVarintBytes` unless the source has a faster way).
    mutating func readUVarint() throws -> UInt64
}

extension PayloadSource {
    package mutating func withNextBytes<Result>(
        _ count: Int,
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) throws -> Result {
        try readBytes(count).withUnsafeBufferPointer(body)
    }

    package mutating func readUVarint() throws -> UInt64 {
        try readVarintBytes()
    }

    /// A uvarint read a byte at a time, each checked: at most 10 bytes, minimal.
    package mutating func readVarintBytes() throws -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<10 {
            let byte = try readByte()
            if index == 9 && byte > 1 { throw BundleError.malformedContent("a varint overflows 64 bits") }
            value |= UInt64(byte & 0x7F) << (7 * UInt64(index))
            if byte & 0x80 == 0 {
                if byte == 0 && index > 0 { throw BundleError.malformedContent("a varint is not minimal") }
                return value
            }
        }
        throw BundleError.malformedContent("a varint is longer than 10 bytes")
    }

    /// A uvarint that must be at most `limit` (a count or a length).
    package mutating func readCount(limit: Int, _ what: String) throws -> Int {
        let value = try readUVarint()
        guard value <= UInt64(limit) else { throw BundleError.malformedContent("\(what) \(value) exceeds \(limit)") }
        return Int(value)
    }

    package mutating func readSVarint() throws -> Int64 {
        let raw = try readUVarint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    package mutating func readText(limit: Int) throws -> String {
        try withNextBytes(try readCount(limit: limit, "a text length")) { bytes in
            guard let text = String(validUTF8: bytes) else {
                throw BundleError.malformedContent("a text is not valid UTF-8")
            }
            return text
        }
    }

    package mutating func readID64() throws -> UInt64 {
        UInt64(bigEndian: try readBytes(8)[...])
    }
}

/// A record frame (or another whole unit of a payload, such as a membership operation) being
/// decoded.
package struct FrameBytes: PayloadSource {
    private let bytes: [UInt8]
    private var position = 0
    /// What the bytes are, for the error at a cut ("a record frame").
    private let unit: String

    package init(_ bytes: [UInt8], unit: String = "a record frame") {
        self.bytes = bytes
        self.unit = unit
    }

    package var isAtEnd: Bool { position == bytes.count }

    /// How many bytes were read.
    var offset: Int { position }

    /// Steps over the next `count` bytes.
    mutating func skip(_ count: Int) throws {
        guard count <= bytes.count - position else {
            throw BundleError.malformedContent("\(unit) ends inside a field")
        }
        position += count
    }

    /// A uvarint: most of a frame's are one byte (tags, small numbers, lengths), read here
    /// without the checks a longer one needs.
    package mutating func readUVarint() throws -> UInt64 {
        if position < bytes.count, bytes[position] < 0x80 {
            defer { position += 1 }
            return UInt64(bytes[position])
        }
        return try readVarintBytes()
    }

    package mutating func readByte() throws -> UInt8 {
        guard position < bytes.count else { throw BundleError.malformedContent("\(unit) ends inside a field") }
        defer { position += 1 }
        return bytes[position]
    }

    package mutating func readBytes(_ count: Int) throws -> [UInt8] {
        var read: [UInt8] = []
        try copyBytes(count, to: &read)
        return read
    }

    package mutating func withNextBytes<Result>(
        _ count: Int,
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) throws -> Result {
        guard count <= bytes.count - position else {
            throw BundleError.malformedContent("\(unit) ends inside a field")
        }
        let result = try bytes.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[position..<position + count]))
        }
        position += count
        return result
    }

    /// Appends the next `count` bytes to `output`, as they are.
    mutating func copyBytes(_ count: Int, to output: inout [UInt8]) throws {
        guard count <= bytes.count - position else {
            throw BundleError.malformedContent("\(unit) ends inside a field")
        }
        output.append(contentsOf: bytes[position..<position + count])
        position += count
    }
}

extension Array where Element == UInt8 {
    package mutating func appendBigEndian(_ value: UInt64, width: Int) {
        var index = width
        while index > 0 {
            index -= 1
            append(UInt8(truncatingIfNeeded: value >> UInt64(index * 8)))
        }
    }
}

extension String {
    /// `bytes` as a text if they are valid UTF-8, else `nil`: decoded (which replaces what is
    /// not UTF-8) and compared with `bytes`, the stdlib's fast path, where the generic
    /// `String(validating:as:)` took a tenth of decoding a record. The comparison is `memcmp`
    /// (`elementsEqual` went byte by byte: 4% of decoding a record).
    init?(validUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        var text = String(decoding: bytes, as: UTF8.self)
        let same = text.withUTF8 { decoded in
            decoded.count == bytes.count
                && (bytes.isEmpty || memcmp(decoded.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
        guard same else { return nil }
        self = text
    }
}

extension UInt64 {
    package init(bigEndian bytes: ArraySlice<UInt8>) {
        self = bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
