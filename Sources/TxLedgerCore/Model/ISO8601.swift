import Foundation

/// The ledger's text form of instants: ISO 8601 (RFC 3339) in UTC with a `Z`, with
/// milliseconds when they are not zero (`2025-07-01T12:00:00Z`, `2025-07-01T12:00:00.250Z`).
///
/// Both directions work on whole milliseconds with integer arithmetic (`CivilTime`), never
/// through `Double` seconds: what prints parses back to the same millisecond, and the other way
/// round (Specs/schema.md, "Instants").
public enum ISO8601 {
    public static func string(from date: Date) -> String {
        string(millis: date.millis)
    }

    /// The text of `millis` milliseconds since 1970 (1970...9999).
    public static func string(millis: Int64) -> String {
        let t = CivilTime(millis: millis)
        var text =
            "\(pad(t.year, 4))-\(pad(t.month, 2))-\(pad(t.day, 2))T\(pad(t.hour, 2)):\(pad(t.minute, 2)):\(pad(t.second, 2))"
        if t.millisecond != 0 { text += "." + pad(t.millisecond, 3) }
        return text + "Z"
    }

    /// Parses an instant: `YYYY-MM-DDTHH:MM:SS`, optionally with a fraction of up to millisecond
    /// precision (further digits must be zeros), then `Z` or an offset `±HH:MM`; or a bare date
    /// `YYYY-MM-DD` (midnight UTC). `T` and `Z` may be lower case (RFC 3339).
    /// - Throws: `LedgerError.invalidInput` naming `field` if it is not such a text, names no
    ///   real date or time, or lies outside 1970...9999.
    public static func date(from text: String, field: String) throws -> Date {
        Date(millis: try millis(from: text, field: field))
    }

    /// `date(from:field:)` in milliseconds since 1970.
    public static func millis(from text: String, field: String) throws -> Int64 {
        guard let millis = parse(Array(text.utf8)) else {
            throw LedgerError.invalidInput(
                field: field,
                reason: "'\(text.prefix(40))' is not an ISO 8601 time such as 2025-07-01T12:00:00Z"
            )
        }
        guard (0...Date.maxMillis).contains(millis) else {
            throw LedgerError.invalidInput(field: field, reason: "must lie between 1970 and the year 9999")
        }
        return millis
    }

    private static func parse(_ s: [UInt8]) -> Int64? {
        var i = 0
        func digits(_ count: Int) -> Int? {
            guard i + count <= s.count else { return nil }
            var value = 0
            for byte in s[i..<i + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            i += count
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard i < s.count, characters.utf8.contains(s[i]) else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2) else {
            return nil
        }
        if i == s.count { return CivilTime.millis(year: year, month: month, day: day) }
        guard expect("Tt"), let hour = digits(2), expect(":"), let minute = digits(2), expect(":"),
            let second = digits(2)
        else { return nil }
        var millisecond = 0
        if expect(".") {
            let start = i
            while i < s.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(s[i]) { i += 1 }
            let fraction = s[start..<i]
            // At most nine digits; none may be lost: beyond the third, only zeros.
            guard (1...9).contains(fraction.count), fraction.dropFirst(3).allSatisfy({ $0 == UInt8(ascii: "0") }) else {
                return nil
            }
            for (k, byte) in fraction.prefix(3).enumerated() {
                millisecond += Int(byte - UInt8(ascii: "0")) * [100, 10, 1][k]
            }
        }
        var offsetMinutes = 0
        if !expect("Zz") {
            guard i < s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") else { return nil }
            let sign = s[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let hours = digits(2), expect(":"), let minutes = digits(2), hours <= 23, minutes <= 59 else {
                return nil
            }
            offsetMinutes = sign * (hours * 60 + minutes)
        }
        guard i == s.count,
            let local = CivilTime.millis(
                year: year,
                month: month,
                day: day,
                hour: hour,
                minute: minute,
                second: second,
                millisecond: millisecond
            )
        else { return nil }
        return local - Int64(offsetMinutes) * 60_000
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
