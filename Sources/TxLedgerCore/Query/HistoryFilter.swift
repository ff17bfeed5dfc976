import Foundation

/// What a history screen shows: a tab and any secondary filters. Every filter narrows; `nil`
/// or an empty set means "no restriction", except `statuses`, which lists the statuses shown
/// (all four by default). `Specs/queries.md` gives the exact matching rules.
///
/// ```swift
/// var filter = HistoryFilter(vault: "main", tab: .swaps)
/// filter.chains = [try Chain(parsing: "ethereum")]
/// let page = try await ledger.list(filter, limit: 50)
/// ```
public struct HistoryFilter: Sendable, Hashable {
    /// One vault, or every vault when `nil`.
    public var vault: String?
    public var tab: HistoryTab
    /// The chain a record was made on (for swaps: the chain of the source transaction).
    public var chains: Set<Chain>
    /// Token symbols or contracts, any case, on either side of a swap.
    public var tokens: Set<String>
    /// Records at or after this instant.
    public var since: Date?
    /// Records strictly before this instant.
    public var until: Date?
    /// The statuses shown; all by default. An empty set shows nothing.
    public var statuses: Set<TransactionStatus>
    /// Swap providers, any case (`thorchain` matches `THORChain`); only swaps match.
    public var providers: Set<String>
    public var includeHidden: Bool
    /// Whether records replaced by another transaction (`replacedBy`: a speed-up or cancel
    /// that confirmed, or an original that confirmed before its replacement) are shown; by
    /// default they are folded under the one that confirmed, which names them.
    public var includeReplaced: Bool
    /// Text a person typed: a transaction hash prefix (with or without `0x`), an address
    /// prefix (from or to), or words in the memo or the note. ASCII letters match in any case.
    public var search: String?

    public init(
        vault: String? = nil,
        tab: HistoryTab = .overview,
        chains: Set<Chain> = [],
        tokens: Set<String> = [],
        since: Date? = nil,
        until: Date? = nil,
        statuses: Set<TransactionStatus> = Set(TransactionStatus.allCases),
        providers: Set<String> = [],
        includeHidden: Bool = false,
        includeReplaced: Bool = false,
        search: String? = nil
    ) {
        self.vault = vault
        self.tab = tab
        self.chains = chains
        self.tokens = tokens
        self.since = since
        self.until = until
        self.statuses = statuses
        self.providers = providers
        self.includeHidden = includeHidden
        self.includeReplaced = includeReplaced
        self.search = search
    }

    /// Which part of the history: everything, the transactions still in progress, or the rest.
    public enum Stage: String, Sendable, CaseIterable, Codable {
        case all
        /// Sends and swaps that are `broadcasted` or `pending`: the elevated in-progress cards
        /// (vault-transaction-history.md), the "Pending" list (pending-completed-history-screen.md).
        case inProgress
        /// Everything else: confirmed or failed sends and swaps, and signature requests, which
        /// are complete once signed whatever their status.
        case completed
    }

    public var stage: Stage = .all

    /// This filter restricted to transactions in progress.
    public var inProgress: HistoryFilter { at(.inProgress) }

    /// This filter restricted to completed transactions: what follows the in-progress section.
    public var completed: HistoryFilter { at(.completed) }

    /// Whether anything beyond the vault, the tab, the stage and hidden records narrows the history.
    public var isNarrowed: Bool {
        !chains.isEmpty || !tokens.isEmpty || since != nil || until != nil
            || statuses.count != TransactionStatus.allCases.count
            || !providers.isEmpty || !(search?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ?? true)
    }

    private func at(_ stage: Stage) -> HistoryFilter {
        var copy = self
        copy.stage = stage
        return copy
    }
}
