import Foundation

/// An instant's calendar date and clock time in the proleptic Gregorian calendar, computed
/// from whole milliseconds with integer arithmetic only (Howard Hinnant's `civil_from_days`
/// and `days_from_civil`), so that text made from it is exact to the millisecond.
public struct CivilTime: Hashable, Sendable {
    public let year: Int
    /// 1...12
    public let month: Int
    /// 1...31
    public let day: Int
    /// 0...23
    public let hour: Int
    /// 0...59
    public let minute: Int
    /// 0...59
    public let second: Int
    /// 0...999
    public let millisecond: Int

    /// The UTC date and time of `millis` milliseconds since 1970-01-01T00:00:00Z.
    public init(millis: Int64) {
        let (days, msOfDay) = millis.floorDivided(by: 86_400_000)
        (year, month, day) = Self.civil(fromDays: days)
        hour = Int(msOfDay / 3_600_000)
        minute = Int(msOfDay / 60_000 % 60)
        second = Int(msOfDay / 1000 % 60)
        millisecond = Int(msOfDay % 1000)
    }

    /// The wall-clock date and time of `date` in `timeZone` (its offset at that instant).
    public init(_ date: Date, in timeZone: TimeZone) {
        self.init(millis: date.millis + Int64(timeZone.secondsFromGMT(for: date)) * 1000)
    }

    /// The instant this date and time name in UTC, in milliseconds since 1970, or `nil` if a
    /// field is out of its range (February 30th, hour 24...).
    static func millis(
        year: Int,
        month: Int,
        day: Int,
        hour: Int = 0,
        minute: Int = 0,
        second: Int = 0,
        millisecond: Int = 0
    ) -> Int64? {
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second),
            (0...999).contains(millisecond)
        else { return nil }
        let days = Self.days(fromCivil: year, month, day)
        return ((days * 24 + Int64(hour)) * 60 + Int64(minute)) * 60_000 + Int64(second) * 1000 + Int64(millisecond)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    private static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * Int64(month > 2 ? month - 3 : month + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int64) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0)), Int(month), Int(day))
    }
}

extension Int64 {
    /// Quotient rounded toward minus infinity, and a remainder that is never negative.
    fileprivate func floorDivided(by divisor: Int64) -> (Int64, Int64) {
        let remainder = self % divisor
        return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
    }
}
