/// Validation of the free-text fields of a record, in one place so every entry point (library,
/// JSON, CLI, and later bundles) applies the same limits. The limits are listed in
/// `Specs/schema.md`.
package enum TextField {
    /// Single-line identifiers and labels: no control characters at all.
    case line(max: Int)
    /// Multi-line text (notes, memos, signed messages): newlines and tabs allowed.
    case text(max: Int)

    package static let identifier = TextField.line(max: 256)
    static let url = TextField.line(max: 2048)
    static let memo = TextField.text(max: 1024)
    package static let note = TextField.text(max: 10_000)
    static let message = TextField.text(max: 1_048_576)

    /// Returns `value` if it fits; throws `LedgerError.invalidInput` naming `field` otherwise.
    @discardableResult
    package func validate(_ value: String, field: @autoclosure () -> String) throws -> String {
        let (limit, allowsNewlines): (Int, Bool) =
            switch self {
            case let .line(max): (max, false)
            case let .text(max): (max, true)
            }
        guard !value.isEmpty else {
            throw LedgerError.invalidInput(field: field(), reason: "must not be empty (omit it instead)")
        }
        guard value.utf8.count <= limit else {
            throw LedgerError.invalidInput(
                field: field(),
                reason: "is \(value.utf8.count) bytes long; the limit is \(limit)"
            )
        }
        // A control character is one byte of UTF-8 (no byte of a longer sequence is below 0x80).
        func isRefused(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"): !allowsNewlines
            case 0..<0x20, 0x7F: true
            default: false
            }
        }
        if let bad = value.utf8.withContiguousStorageIfAvailable({ $0.first(where: isRefused) })
            ?? value.utf8.first(where: isRefused)
        {
            throw LedgerError.invalidInput(
                field: field(),
                reason: "contains the control character U+\(String(bad, radix: 16, uppercase: true))"
            )
        }
        return value
    }

    /// Validates an optional value; `nil` stays `nil`.
    package func validate(_ value: String?, field: @autoclosure () -> String) throws -> String? {
        try value.map { try validate($0, field: field()) }
    }
}
