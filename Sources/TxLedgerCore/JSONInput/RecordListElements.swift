import Foundation

/// Where the records lie in `record --json` input that is a list: an array of records, or what
/// `list --json` prints (an object of `items`, the array, and `nextCursor`, a string or null).
/// The scan follows strings and nesting only to find each record's bytes; the records
/// themselves are left to the JSON decoder, which checks them. Any other shape, or anything
/// this scan does not follow exactly (an escape in a key, another member, a cursor that is not
/// plain ASCII), gives `nil`: the whole document is then decoded at once, as a single record is.
enum RecordListElements {
    /// The byte ranges of the list's records in `bytes`, in order; `nil` as said above.
    static func ranges(in bytes: UnsafeRawBufferPointer) -> [Range<Int>]? {
        var scan = Scan(bytes: bytes)
        scan.skipWhitespace()
        let ranges: [Range<Int>]?
        switch scan.peek {
        case UInt8(ascii: "["): ranges = scan.arrayElements()
        case UInt8(ascii: "{"): ranges = scan.itemsOfListing()
        default: return nil
        }
        scan.skipWhitespace()
        return scan.isAtEnd ? ranges : nil
    }

    private struct Scan {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        var isAtEnd: Bool { position == bytes.count }
        var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipWhitespace() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
        }

        mutating func expect(_ character: Unicode.Scalar) -> Bool {
            guard peek == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        /// The ranges of the values of the array at the current position, which it passes.
        mutating func arrayElements() -> [Range<Int>]? {
            guard expect("[") else { return nil }
            var ranges: [Range<Int>] = []
            skipWhitespace()
            if expect("]") { return ranges }
            while true {
                skipWhitespace()
                let start = position
                guard skipValue() else { return nil }
                ranges.append(start..<position)
                skipWhitespace()
                if expect("]") { return ranges }
                guard expect(",") else { return nil }
            }
        }

        /// `list --json`'s object: the ranges of its `items`, and `nextCursor` a plain string or
        /// null; members in any order, each once.
        mutating func itemsOfListing() -> [Range<Int>]? {
            guard expect("{") else { return nil }
            var items: [Range<Int>]?
            var sawCursor = false
            repeat {
                skipWhitespace()
                guard let key = plainString() else { return nil }
                skipWhitespace()
                guard expect(":") else { return nil }
                skipWhitespace()
                switch key {
                case "items" where items == nil:
                    guard let ranges = arrayElements() else { return nil }
                    items = ranges
                case "nextCursor" where !sawCursor:
                    sawCursor = true
                    if bytes[position...].starts(with: "null".utf8) {
                        position += 4
                    } else if plainString() == nil {
                        return nil
                    }
                default: return nil
                }
                skipWhitespace()
            } while expect(",")
            return expect("}") ? items : nil
        }

        /// A string of printable ASCII without escapes, which it passes.
        mutating func plainString() -> String? {
            guard expect("\"") else { return nil }
            let start = position
            while let byte = peek, byte != UInt8(ascii: "\"") {
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
                position += 1
            }
            guard expect("\"") else { return nil }
            return String(decoding: bytes[start..<position - 1], as: UTF8.self)
        }

        /// Passes one value, following strings (and their escapes) and nesting; a scalar ends
        /// where a separator, a closing bracket or whitespace begins. Whether the value is valid
        /// is the decoder's to say.
        mutating func skipValue() -> Bool {
            let start = position
            var depth = 0
            while let byte = peek {
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    while let inner = peek, inner != UInt8(ascii: "\"") {
                        position += inner == UInt8(ascii: "\\") ? 2 : 1
                    }
                    guard expect("\"") else { return false }
                    if depth == 0 { return true }
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    position += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    guard depth > 0 else { return position > start }
                    depth -= 1
                    position += 1
                    if depth == 0 { return true }
                case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
                    guard depth > 0 else { return position > start }
                    position += 1
                default:
                    position += 1
                }
            }
            return depth == 0 && position > start
        }
    }
}
