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

    /// The form a writer uses for the UTF-8 `text`: one pass over its bytes.
    static func form(of text: UnsafeBufferPointer<UInt8>) -> Form {
        guard !text.isEmpty, text.count % 2 == 0 else { return .utf8 }
        var lowerLetters = false
        var upperLetters = false
        for index in text.indices {
            let byte = text[index]
            if byte >= 0x30 && byte <= 0x39 { continue }
            if byte >= 0x61 && byte <= 0x66 {
                lowerLetters = true
            } else if byte >= 0x41 && byte <= 0x46 {
                upperLetters = true
            } else if !(byte == UInt8(ascii: "x") && index == 1 && text[0] == UInt8(ascii: "0")) {
                return .utf8
            }
        }
        let prefixed = text[1] == UInt8(ascii: "x")
        if prefixed { return text.count >= 4 && !upperLetters ? .prefixedLowerHex : .utf8 }
        if !upperLetters { return .lowerHex }
        return lowerLetters ? .utf8 : .upperHex
    }

    /// The value of a hex digit (validated by `form(of:)`).
    static func nibble(_ digit: UInt8) -> UInt8 {
        digit <= UInt8(ascii: "9") ? digit &- UInt8(ascii: "0") : (digit | 0x20) &- UInt8(ascii: "a") &+ 10
    }

    private static let lowerDigits = Array("0123456789abcdef".utf8), upperDigits = Array("0123456789ABCDEF".utf8)

    /// The text that `bytes` in `form` stand for.
    static func text(_ bytes: UnsafeBufferPointer<UInt8>, form: Form) -> String {
        guard form != .utf8 else { return String(decoding: bytes, as: UTF8.self) }
        let alphabet = form == .upperHex ? upperDigits : lowerDigits
        let prefixed = form == .prefixedLowerHex
        return String(unsafeUninitializedCapacity: (prefixed ? 2 : 0) + 2 * bytes.count) { utf8 in
            var index = 0
            if prefixed {
                utf8[0] = UInt8(ascii: "0")
                utf8[1] = UInt8(ascii: "x")
                index = 2
            }
            for byte in bytes {
                utf8[index] = alphabet[Int(byte >> 4)]
                utf8[index + 1] = alphabet[Int(byte & 0x0F)]
                index += 2
            }
            return index
        }
    }

    /// Whether `bytes` in the hex form `form` is how a writer writes the text they stand for
    /// (the text's `form(of:)` is `form`), decided on the bytes: a prefixed or lowercase one
    /// holds a byte (an empty text is UTF-8), and an uppercase one a letter (digits alone are
    /// lowercase hex).
    static func isCanonical(_ bytes: UnsafeBufferPointer<UInt8>, hex form: Form) -> Bool {
        switch form {
        case .utf8: preconditionFailure("a hex form")
        case .prefixedLowerHex, .lowerHex: return !bytes.isEmpty
        case .upperHex: return bytes.contains { $0 >> 4 >= 10 || $0 & 0x0F >= 10 }
        }
    }
}

extension Array where Element == UInt8 {
    mutating func appendCompactText(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            let form = CompactText.form(of: utf8)
            switch form {
            case .utf8:
                appendUVarint(UInt64(utf8.count) << 2 | UInt64(form.rawValue))
                append(contentsOf: utf8)
            case .prefixedLowerHex, .lowerHex, .upperHex:
                let hex = form == .prefixedLowerHex ? UnsafeBufferPointer(rebasing: utf8.dropFirst(2)) : utf8
                appendUVarint(UInt64(hex.count / 2) << 2 | UInt64(form.rawValue))
                reserveCapacity(count + hex.count / 2)
                var index = 0
                while index < hex.count {
                    append(CompactText.nibble(hex[index]) << 4 | CompactText.nibble(hex[index + 1]))
                    index += 2
                }
            }
        }
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
        return try withNextBytes(Int(length)) { bytes in
            if form == .utf8 {
                guard let text = String(validUTF8: bytes) else {
                    throw BundleError.malformedContent("a text is not valid UTF-8")
                }
                guard CompactText.form(of: bytes) == .utf8 else {
                    throw BundleError.malformedContent("a text is not in its compact form")
                }
                return text
            }
            guard CompactText.isCanonical(bytes, hex: form) else {
                throw BundleError.malformedContent("a text is not in its compact form")
            }
            return CompactText.text(bytes, form: form)
        }
    }
}
