/// The CSV layouts `Ledger.exportCSV(_:to:format:)` writes (Specs/queries.md, "CSV export").
public enum CSVFormat: String, CaseIterable, Sendable, Codable {
    /// Every field of every record, TxLedger's own columns.
    case txledger
    /// Koinly's universal import template.
    case koinly
    /// CoinTracker's CSV import format.
    case cointracker

    /// The header's fields.
    package var columns: [String] {
        switch self {
        case .txledger: HistoryCSV.columns
        case .koinly: TaxToolCSV.koinlyColumns
        case .cointracker: TaxToolCSV.coinTrackerColumns
        }
    }

    /// The fields of `record`'s line, or `nil` when the format has no line for it.
    package func fields(_ record: TransactionRecord) -> [String?]? {
        switch self {
        case .txledger: HistoryCSV.fields(record)
        case .koinly: TaxToolCSV.koinly(record)
        case .cointracker: TaxToolCSV.coinTracker(record)
        }
    }
}
