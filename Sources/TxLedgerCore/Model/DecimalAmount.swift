import Foundation

/// An exact, non-negative decimal amount, kept as the string it was given.
///
/// Money never passes through `Double`: `1234567890.123456789012345678` is stored and printed
/// exactly as written. Accepted syntax: digits, optionally a dot and more digits
/// (`0`, `12.50`, `0.000000000000000001`); at most 100 characters. Not accepted: signs,
/// exponents, separators, whitespace, a leading or trailing dot.
public struct DecimalAmount: Hashable, Sendable, CustomStringConvertible {
    public static let maxLength = 100

    /// The amount exactly as given.
    public let string: String

    /// Validates `string`; throws `LedgerError.invalidInput` naming `field` when it is not a
    /// plain decimal.
    public init(_ string: String, field: String = "amount") throws {
        guard Self.isValid(string) else {
            throw LedgerError.invalidInput(
                field: field,
                reason: "'\(string.prefix(40))' is not a decimal amount (digits with an optional fraction, e.g. 12.5)"
            )
        }
        self.string = string
    }

    /// An amount this package has already checked (a kept status detail).
    init(checked string: String) {
        self.string = string
    }

    /// The amount a `Decimal` holds (an app's own amounts), written out in plain digits: no
    /// binary floating point on the way.
    /// - Throws: `LedgerError.invalidInput` naming `field` for a negative value, NaN, or more
    ///   than 100 characters of digits.
    public init(_ value: Decimal, field: String = "amount") throws {
        guard !value.isNaN, value.sign == .plus || value.isZero else {
            throw LedgerError.invalidInput(field: field, reason: "must be a number of at least 0")
        }
        try self.init(value.isZero ? "0" : value.description, field: field)
    }

    /// The amount for people: trailing zeros of the fraction dropped (`0.250000000000000000`
    /// from base units shows `0.25`, `12.50` shows `12.5`, `3.000` shows `3`). `string` keeps
    /// what was stored.
    public var displayString: String {
        guard string.contains(".") else { return string }
        let trimmed = string.reversed().drop { $0 == "0" }
        return String((trimmed.first == "." ? trimmed.dropFirst() : trimmed).reversed())
    }

    /// The amount whose base units (the integer a chain stores, e.g. wei) are `baseUnits` for a
    /// token with `decimals` decimals: `("1500000", 6)` is `1.500000`.
    public init(baseUnits: String, decimals: Int, field: String = "amount") throws {
        guard !baseUnits.isEmpty, baseUnits.utf8.allSatisfy(Self.isDigit), (0...255).contains(decimals) else {
            throw LedgerError.invalidInput(
                field: field,
                reason: "'\(baseUnits.prefix(40))' is not a base-unit integer with 0...255 decimals"
            )
        }
        let padded = String(repeating: "0", count: max(0, decimals + 1 - baseUnits.count)) + baseUnits
        let split = padded.index(padded.endIndex, offsetBy: -decimals)
        let text = decimals == 0 ? padded : padded[..<split] + "." + padded[split...]
        try self.init(String(text), field: field)
    }

    /// This amount in base units for a token with `decimals` decimals (`1.5` with 6 decimals is
    /// `1500000`); `nil` if the amount has more fractional digits than the token allows.
    public func baseUnits(decimals: Int) -> String? {
        let parts = string.split(separator: ".", omittingEmptySubsequences: false)
        let fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.count <= decimals else { return nil }
        let digits = parts[0] + fraction + String(repeating: "0", count: decimals - fraction.count)
        let trimmed = digits.drop(while: { $0 == "0" })
        return trimmed.isEmpty ? "0" : String(trimmed)
    }

    public var description: String { string }

    static func isValid(_ s: String) -> Bool {
        guard s.utf8.count <= maxLength else { return false }
        // Read from the string's own storage (a byte at a time through `utf8` cost a fortieth
        // of decoding a record).
        return s.utf8.withContiguousStorageIfAvailable(isValid) ?? Array(s.utf8).withUnsafeBufferPointer(isValid)
    }

    /// One pass: digits, at most one point, and digits on each side of it.
    private static func isValid(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var digits = 0
        var sawPoint = false
        for byte in utf8 {
            if isDigit(byte) {
                digits += 1
            } else if byte == UInt8(ascii: "."), !sawPoint, digits > 0 {
                sawPoint = true
                digits = 0
            } else {
                return false
            }
        }
        return digits > 0
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
