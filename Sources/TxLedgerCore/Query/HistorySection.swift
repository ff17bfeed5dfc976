import Foundation

/// Consecutive records of one day or one month, with the header a screen shows above them.
public struct HistorySection: Sendable, Hashable, Identifiable {
    /// `2025-07-14` for a day, `2025-07` for a month, in the sections' time zone: stable
    /// across pages and re-renders, so a list can diff sections by it.
    public let id: String
    /// `Today`, `Yesterday`, `Monday`, `July 14` or `July 14, 2024` for days; `July 2025` for months.
    public let title: String
    /// The date of a day titled in words (`Today`, `Yesterday`, a weekday), as in
    /// "Today · Jul 14, 2025"; `nil` when the title is already a date, and for months.
    public let subtitle: String?
    public let records: [TransactionRecord]
}
