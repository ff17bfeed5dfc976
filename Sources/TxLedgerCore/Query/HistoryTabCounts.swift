/// How many records each tab of a history screen holds under the same filters.
public struct HistoryTabCounts: Sendable, Hashable {
    public let swaps: Int
    public let sends: Int
    public let signatures: Int

    /// Every record: the sum of the other tabs.
    public var overview: Int { swaps + sends + signatures }

    public subscript(tab: HistoryTab) -> Int {
        switch tab {
        case .overview: overview
        case .swaps: swaps
        case .sends: sends
        case .signatures: signatures
        }
    }

    package init(byKind counts: [TransactionKind: Int]) {
        swaps = counts[.swap] ?? 0
        sends = counts[.send] ?? 0
        signatures = counts[.signature] ?? 0
    }
}
