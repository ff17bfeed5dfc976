import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Day and month sections with an injected calendar, time zone, locale and "now" (issue #6).
struct HistorySectionsTests {
    private static let utc = TimeZone(identifier: "UTC")!
    private static let newYork = TimeZone(identifier: "America/New_York")!
    private static let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    private static let english = Locale(identifier: "en_US")

    private func at(_ text: String) throws -> TransactionRecord {
        try Fixture.minimalSend(hash: abs(text.hashValue % 100_000) + 1, at: try ISO8601.date(from: text, field: "at"))
    }

    private func titles(
        _ times: [String],
        now: String,
        zone: TimeZone = utc,
        locale: Locale = english
    ) throws -> [String] {
        let sections = HistorySections(timeZone: zone, locale: locale, now: try ISO8601.date(from: now, field: "now"))
        return sections.byDay(try times.map(at)).map { section in
            section.subtitle.map { "\(section.title) · \($0)" } ?? section.title
        }
    }

    @Test func todayYesterdayWeekdaysThenDates() throws {
        // Friday 2025-07-18, 09:00 UTC.
        let titles = try titles(
            [
                "2025-07-18T08:59:00Z", "2025-07-18T00:00:00Z", "2025-07-17T23:59:59.999Z", "2025-07-16T12:00:00Z",
                "2025-07-12T00:00:00Z", "2025-07-11T23:59:59Z", "2024-12-31T12:00:00Z",
            ],
            now: "2025-07-18T09:00:00Z"
        )
        #expect(
            titles == [
                "Today · Jul 18, 2025", "Yesterday · Jul 17, 2025", "Wednesday · Jul 16, 2025",
                "Saturday · Jul 12, 2025",
                "July 11", "December 31, 2024",
            ]
        )
    }

    @Test func midnightDecidesTheDayInTheInjectedTimeZone() throws {
        let times = ["2025-07-18T03:30:00Z", "2025-07-17T23:30:00Z"]
        // 03:30 UTC is still the 17th in New York (UTC-4 in July), and both are the 18th in Tokyo (UTC+9).
        #expect(try titles(times, now: "2025-07-18T12:00:00Z") == ["Today · Jul 18, 2025", "Yesterday · Jul 17, 2025"])
        #expect(try titles(times, now: "2025-07-18T12:00:00Z", zone: Self.newYork) == ["Yesterday · Jul 17, 2025"])
        #expect(try titles(times, now: "2025-07-18T12:00:00Z", zone: Self.tokyo) == ["Today · Jul 18, 2025"])
        // A minute past midnight, what happened two minutes earlier is yesterday.
        #expect(try titles(["2025-07-17T23:59:00Z"], now: "2025-07-18T00:01:00Z") == ["Yesterday · Jul 17, 2025"])
    }

    @Test func acrossMonthAndYearEnds() throws {
        #expect(
            try titles(["2025-08-01T00:10:00Z", "2025-07-31T23:50:00Z"], now: "2025-08-01T08:00:00Z")
                == ["Today · Aug 1, 2025", "Yesterday · Jul 31, 2025"]
        )
        #expect(
            try titles(
                ["2026-01-01T00:00:00Z", "2025-12-31T23:59:59Z", "2025-12-29T10:00:00Z", "2025-12-24T10:00:00Z"],
                now: "2026-01-01T10:00:00Z"
            )
                == ["Today · Jan 1, 2026", "Yesterday · Dec 31, 2025", "Monday · Dec 29, 2025", "December 24, 2025"]
        )
        // Leap day, and a date in the future (a device clock ahead) titled by its date.
        #expect(
            try titles(["2028-03-01T12:00:00Z", "2028-02-29T12:00:00Z"], now: "2028-02-29T13:00:00Z")
                == ["March 1", "Today · Feb 29, 2028"]
        )
    }

    @Test func monthsWithIdsAcrossYearsZonesAndLocales() throws {
        let records = try [
            "2025-08-01T02:00:00Z", "2025-07-31T10:00:00Z", "2025-07-01T00:00:00Z", "2024-12-31T23:00:00Z",
        ].map(at)
        let now = try ISO8601.date(from: "2025-08-10T00:00:00Z", field: "now")
        let utc = HistorySections(timeZone: Self.utc, locale: Self.english, now: now).byMonth(records)
        #expect(utc.map(\.title) == ["August 2025", "July 2025", "December 2024"])
        #expect(utc.map(\.id) == ["2025-08", "2025-07", "2024-12"])
        #expect(utc.map(\.records.count) == [1, 2, 1])
        // In New York (UTC-4) the first is still July and the third still June; the last is December all the same.
        let newYork = HistorySections(timeZone: Self.newYork, locale: Self.english, now: now).byMonth(records)
        #expect(newYork.map(\.title) == ["July 2025", "June 2025", "December 2024"])
        #expect(newYork.map(\.records.count) == [2, 1, 1])
        // In Tokyo the last one is already January.
        #expect(
            HistorySections(timeZone: Self.tokyo, locale: Self.english, now: now).byMonth(records).map(\.id)
                == ["2025-08", "2025-07", "2025-01"]
        )
        let german = HistorySections(timeZone: Self.utc, locale: Locale(identifier: "de_DE"), now: now)
        #expect(german.byMonth(records).first?.title == "August 2025")
        #expect(german.byMonth(Array(records[1...1])).first?.title == "Juli 2025")
    }

    @Test func localizedWordsAndWeekdays() throws {
        let now = try ISO8601.date(from: "2025-07-18T09:00:00Z", field: "now")
        let french = HistorySections(
            timeZone: Self.utc,
            locale: Locale(identifier: "fr_FR"),
            now: now,
            words: .init(today: "Aujourd’hui", yesterday: "Hier")
        )
        let sections = french.byDay(
            try ["2025-07-18T01:00:00Z", "2025-07-17T01:00:00Z", "2025-07-14T01:00:00Z"].map(at)
        )
        #expect(sections.map(\.title) == ["Aujourd’hui", "Hier", "lundi"])
        #expect(sections.map(\.id) == ["2025-07-18", "2025-07-17", "2025-07-14"])
    }

    @Test func sectionsKeepTheRecordsInOrderAndEveryRecordOnce() throws {
        let records = try HistoryFixture.records(count: 60).sorted { ($0.timestamp, $0.id) > ($1.timestamp, $1.id) }
        let sections = HistorySections(timeZone: Self.tokyo, locale: Self.english, now: HistoryFixture.start).byDay(
            records
        )
        #expect(sections.flatMap(\.records) == records)
        #expect(Set(sections.map(\.id)).count == sections.count)
        for section in sections {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = Self.tokyo
            let days = Set(section.records.map { calendar.dateComponents([.year, .month, .day], from: $0.timestamp) })
            #expect(days.count == 1)
        }
        #expect(HistorySections(now: Date()).byDay([]).isEmpty)
    }
}
