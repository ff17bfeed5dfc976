import Foundation

/// The ledger's text form of instants: ISO 8601 in UTC with a `Z`, with milliseconds when they
/// are not zero (`2025-07-01T12:00:00Z`, `2025-07-01T12:00:00.250Z`).
public enum ISO8601 {
    public static func string(from date: Date) -> String {
        let millis = date.millis
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: millis % 1000 != 0, timeZone: TimeZone(identifier: "UTC")!)
        return date.formatted(style)
    }

    /// Parses an ISO 8601 instant with a time zone (`Z` or an offset), with or without
    /// fractional seconds, or a bare date (`2025-07-01`, midnight UTC).
    /// - Throws: `LedgerError.invalidInput` naming `field`.
    public static func date(from text: String, field: String) throws -> Date {
        let utc = TimeZone(identifier: "UTC")!
        let candidates: [Date.ISO8601FormatStyle] = [
            .init(includingFractionalSeconds: true, timeZone: utc),
            .init(includingFractionalSeconds: false, timeZone: utc),
            .init(timeZone: utc).year().month().day(),
        ]
        for style in candidates {
            if let date = try? style.parse(text) {
                return Date(millis: try Date.validatedMillis(date, field: field))
            }
        }
        throw LedgerError.invalidInput(field: field, reason: "'\(text.prefix(40))' is not an ISO 8601 time such as 2025-07-01T12:00:00Z")
    }
}
