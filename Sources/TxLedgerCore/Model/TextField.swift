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
    package func validate(_ value: String, field: String) throws -> String {
        let (limit, allowsNewlines): (Int, Bool) =
            switch self {
            case let .line(max): (max, false)
            case let .text(max): (max, true)
            }
        guard !value.isEmpty else {
            throw LedgerError.invalidInput(field: field, reason: "must not be empty (omit it instead)")
        }
        guard value.utf8.count <= limit else {
            throw LedgerError.invalidInput(
                field: field,
                reason: "is \(value.utf8.count) bytes long; the limit is \(limit)"
            )
        }
        let badScalar = value.unicodeScalars.first { scalar in
            let isControl = scalar.value < 0x20 || scalar.value == 0x7F
            let isAllowedWhitespace = allowsNewlines && (scalar == "\n" || scalar == "\t" || scalar == "\r")
            return isControl && !isAllowedWhitespace
        }
        if let badScalar {
            throw LedgerError.invalidInput(
                field: field,
                reason: "contains the control character U+\(String(badScalar.value, radix: 16, uppercase: true))"
            )
        }
        return value
    }

    /// Validates an optional value; `nil` stays `nil`.
    package func validate(_ value: String?, field: String) throws -> String? {
        try value.map { try validate($0, field: field) }
    }
}
