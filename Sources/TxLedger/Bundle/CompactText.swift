/// Format 2's encoding of a text (Specs/bundle-format.md, "Primitives"): hashes, addresses
/// and keys written in hex take half their size as bytes.
///
/// A compact text is a uvarint `length << 2 | form`, then `length` bytes:
///
/// | form | the text is |
/// | --- | --- |
/// | 0 | the bytes, UTF-8 |
/// | 1 | `0x`, then the bytes in lowercase hex |
/// | 2 | the bytes in lowercase hex |
/// | 3 | the bytes in uppercase hex |
///
/// Every text has exactly one encoding, the first form of 1, 2, 3 that can write it, else 0;
/// a reader refuses any other.
enum CompactText {
    enum Form: UInt8 {
        case utf8 = 0
        case prefixedLowerHex = 1
        case lowerHex = 2
        case upperHex = 3
    }

    /// The form a writer uses for `text`.
    static func form(of text: Substring.UTF8View) -> Form {
        if text.count >= 4, text.starts(with: prefix), isHex(text.dropFirst(2), letters: lower) {
            return .prefixedLowerHex
        }
        if isHex(text[...], letters: lower) { return .lowerHex }
        if isHex(text[...], letters: upper) { return .upperHex }
        return .utf8
    }

    private static let prefix = Array("0x".utf8)
    private static let lower = UInt8(ascii: "a")...UInt8(ascii: "f"), upper = UInt8(ascii: "A")...UInt8(ascii: "F")
    private static let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
    private static let lowerDigits = Array("0123456789abcdef".utf8), upperDigits = Array("0123456789ABCDEF".utf8)

    /// Whether `text` is a whole number of bytes in hex (at least one) with letters from `letters`.
    private static func isHex(_ text: Substring.UTF8View.SubSequence, letters: ClosedRange<UInt8>) -> Bool {
        !text.isEmpty && text.count % 2 == 0 && text.allSatisfy { digits.contains($0) || letters.contains($0) }
    }

    /// The bytes that hex digits (validated by `isHex`) stand for.
    static func bytes(ofHex text: Substring.UTF8View.SubSequence) -> [UInt8] {
        var bytes: [UInt8] = []
        var high: UInt8 = 0
        var isHigh = true
        bytes.reserveCapacity(text.count / 2)
        for digit in text {
            let nibble = digits.contains(digit) ? digit - digits.lowerBound : (digit | 0x20) - UInt8(ascii: "a") + 10
            if isHigh { high = nibble << 4 } else { bytes.append(high | nibble) }
            isHigh.toggle()
        }
        return bytes
    }

    /// The text that `bytes` in `form` stand for.
    static func text(_ bytes: [UInt8], form: Form) -> String {
        guard form != .utf8 else { return String(decoding: bytes, as: UTF8.self) }
        let alphabet = form == .upperHex ? upperDigits : lowerDigits
        var utf8 = form == .prefixedLowerHex ? prefix : []
        utf8.reserveCapacity(utf8.count + 2 * bytes.count)
        for byte in bytes {
            utf8.append(alphabet[Int(byte >> 4)])
            utf8.append(alphabet[Int(byte & 0x0F)])
        }
        return String(decoding: utf8, as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    mutating func appendCompactText(_ text: String) {
        let utf8 = Substring(text).utf8
        let form = CompactText.form(of: utf8)
        let bytes: [UInt8] =
            switch form {
            case .utf8: Array(utf8)
            case .prefixedLowerHex: CompactText.bytes(ofHex: utf8.dropFirst(2))
            case .lowerHex, .upperHex: CompactText.bytes(ofHex: utf8[...])
            }
        appendUVarint(UInt64(bytes.count) << 2 | UInt64(form.rawValue))
        append(contentsOf: bytes)
    }
}

extension PayloadSource {
    /// A compact text of at most `limit` bytes as written.
    mutating func readCompactText(limit: Int) throws -> String {
        let head = try readUVarint()
        let length = head >> 2
        guard length <= UInt64(limit) else {
            throw BundleError.malformedContent("a text length \(length) exceeds \(limit)")
        }
        let form = CompactText.Form(rawValue: UInt8(head & 3))!  // two bits: each value is a form
        let bytes = try readBytes(Int(length))
        let text = CompactText.text(bytes, form: form)
        if form == .utf8, !text.utf8.elementsEqual(bytes) {
            throw BundleError.malformedContent("a text is not valid UTF-8")
        }
        guard CompactText.form(of: Substring(text).utf8) == form else {
            throw BundleError.malformedContent("a text is not in its compact form")
        }
        return text
    }
}
