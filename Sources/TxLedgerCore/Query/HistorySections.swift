import Foundation

/// Groups newest-first records into day or month sections, with titles computed from an
/// injected calendar, time zone, locale and "now", so that screens and tests agree.
///
/// ```swift
/// let sections = HistorySections(now: Date()).byDay(page.items)
/// // [Today · Jul 14, 2025: 3 records] [Yesterday · Jul 13, 2025: 1 record] [July 2: 5 records]
/// ```
/// Day titles: `Today`, `Yesterday`, the weekday name for the five days before (within the
/// week), then the date (`July 2`, with the year when it is not the current one). Dates after
/// "now" (a device clock ahead) are titled by their date. Month titles: `July 2025`.
public struct HistorySections: Sendable {
    /// The words for the two relative days; an app passes its localized strings.
    public struct Words: Sendable, Hashable {
        public var today: String
        public var yesterday: String

        public init(today: String = "Today", yesterday: String = "Yesterday") {
            self.today = today
            self.yesterday = yesterday
        }
    }

    public let calendar: Calendar
    public let locale: Locale
    public let now: Date
    public let words: Words

    /// - Parameters:
    ///   - calendar: the calendar that decides days and months; its time zone is replaced by `timeZone`.
    ///   - timeZone: where days start and end.
    ///   - locale: the language of weekday and month names and the order of date parts.
    ///   - now: the instant "Today" is relative to.
    ///   - words: the texts the sections show ("Today", "In progress"...), for translations.
    public init(
        calendar: Calendar = Calendar(identifier: .gregorian),
        timeZone: TimeZone = .current,
        locale: Locale = .current,
        now: Date,
        words: Words = Words()
    ) {
        var calendar = calendar
        calendar.timeZone = timeZone
        calendar.locale = locale
        self.calendar = calendar
        self.locale = locale
        self.now = now
        self.words = words
    }

    /// One section per day, in the order of `records` (newest first gives newest day first).
    /// Records of one day that are not adjacent start a new section with the same id.
    public func byDay(_ records: [TransactionRecord]) -> [HistorySection] {
        let today = calendar.startOfDay(for: now)
        let dateWithYear = formatter("yMMMMd")
        let dayMonth = formatter("MMMMd")
        let weekday = formatter("EEEE")
        let subtitle = formatter("yMMMd")
        return group(records, by: [.year, .month, .day]) { day, components in
            let id = String(format: "%04d-%02d-%02d", components.year!, components.month!, components.day!)
            let daysAgo = calendar.dateComponents([.day], from: day, to: today).day!
            let sameYear = calendar.component(.year, from: day) == calendar.component(.year, from: today)
            switch daysAgo {
            case 0: return (id, words.today, subtitle.string(from: day))
            case 1: return (id, words.yesterday, subtitle.string(from: day))
            case 2...6: return (id, weekday.string(from: day), subtitle.string(from: day))
            default: return (id, (sameYear ? dayMonth : dateWithYear).string(from: day), nil)
            }
        }
    }

    /// One section per month (`July 2025`), in the order of `records`.
    public func byMonth(_ records: [TransactionRecord]) -> [HistorySection] {
        let month = formatter("yMMMM")
        return group(records, by: [.year, .month]) { start, components in
            (String(format: "%04d-%02d", components.year!, components.month!), month.string(from: start), nil)
        }
    }

    private func group(
        _ records: [TransactionRecord],
        by units: Set<Calendar.Component>,
        header: (Date, DateComponents) -> (id: String, title: String, subtitle: String?)
    ) -> [HistorySection] {
        var sections: [HistorySection] = []
        var current: (components: DateComponents, records: [TransactionRecord])?
        func close() {
            guard let current else { return }
            let start = calendar.date(from: current.components)!
            let (id, title, subtitle) = header(start, current.components)
            sections.append(HistorySection(id: id, title: title, subtitle: subtitle, records: current.records))
        }
        for record in records {
            let components = calendar.dateComponents(units, from: record.timestamp)
            if current?.components == components {
                current!.records.append(record)
            } else {
                close()
                current = (components, [record])
            }
        }
        close()
        return sections
    }

    private func formatter(_ template: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = locale
        formatter.setLocalizedDateFormatFromTemplate(template)
        return formatter
    }
}
