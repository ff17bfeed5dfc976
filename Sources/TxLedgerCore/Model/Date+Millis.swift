import Foundation

extension Date {
    /// The latest instant a record may carry: 9999-12-31T23:59:59.999Z.
    static let maxMillis: Int64 = 253_402_300_799_999

    /// This date in whole milliseconds since 1970 (the ledger's time resolution), rounded.
    package var millis: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    package init(millis: Int64) { self.init(timeIntervalSince1970: Double(millis) / 1000) }

    /// Checks that a date given for `field` lies between 1970 and the year 9999.
    static func validatedMillis(_ date: Date, field: String) throws -> Int64 {
        guard date.timeIntervalSince1970.isFinite else {
            throw LedgerError.invalidInput(field: field, reason: "is not a finite date")
        }
        let ms = date.timeIntervalSince1970 * 1000
        guard ms >= 0, ms <= Double(maxMillis) else {
            throw LedgerError.invalidInput(field: field, reason: "must lie between 1970 and the year 9999")
        }
        return Int64(ms.rounded())
    }
}
