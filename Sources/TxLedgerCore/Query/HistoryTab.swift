/// The tabs of a history screen (vault-transaction-history.md): everything, or one kind.
public enum HistoryTab: String, Sendable, CaseIterable, Codable {
    case overview
    case swaps
    case sends
    case signatures

    /// The kind of record the tab shows; `nil` for the overview, which shows every kind.
    public var kind: TransactionKind? {
        switch self {
        case .overview: nil
        case .swaps: .swap
        case .sends: .send
        case .signatures: .signature
        }
    }

    /// The tab's title: `Overview`, `Swaps`, `Sends`, `Signatures`.
    public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// Parses a tab name, plural or singular, in any case (`swaps`, `Swap`, `all` for the overview).
    /// - Throws: `LedgerError.invalidInput` for anything else.
    public init(parsing text: String) throws {
        let key = text.lowercased()
        if let tab = HistoryTab(rawValue: key) ?? HistoryTab(rawValue: key + "s") {
            self = tab
        } else if key == "all" {
            self = .overview
        } else {
            throw LedgerError.invalidInput(
                field: "tab",
                reason: "'\(text.prefix(40))' is not one of overview, swaps, sends, signatures"
            )
        }
    }
}
