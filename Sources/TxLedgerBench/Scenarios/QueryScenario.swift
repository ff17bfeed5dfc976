import TxLedger

/// query.*: pages of 50 in the large vault, each the median of many runs on a warm ledger:
/// the first page of the overview, of the swaps tab on Ethereum, the page `sizes.deepPage`
/// reached through cursors, and the in-progress ("pending") section; and the tab counts a
/// screen shows above them, of the overview and of Ethereum. Run on the ledger that
/// recorded the vault (rows), and with `suffix` "_blocks" on the one that imported it (its
/// settled records in blocks).
struct QueryScenario {
    let sizes: BenchSizes
    let report: BenchReport
    var suffix = ""
    static let runs = 51

    func run(_ ledger: Ledger, vault: String) async throws {
        let overview = HistoryFilter(vault: vault)
        var swaps = HistoryFilter(vault: vault, tab: .swaps)
        swaps.chains = [try Chain(parsing: "ethereum")]
        try await measure("query.first_page.1m", ledger, overview)
        try await measure("query.filtered_page.1m", ledger, swaps)

        var cursor: PageCursor?
        for _ in 1..<sizes.deepPage {
            cursor = try await ledger.list(overview, limit: 50, after: cursor).nextCursor
        }
        guard cursor != nil else { throw BenchFailure(description: "the vault has fewer than \(sizes.deepPage) pages") }
        try await measure("query.page_1000.1m", ledger, overview, after: cursor)
        try await measure("query.pending.1m", ledger, overview.inProgress)
        try await measureCounts("query.tab_counts.1m", ledger, overview)
        try await measureCounts("query.tab_counts_eth.1m", ledger, swaps)
    }

    private func measureCounts(_ name: String, _ ledger: Ledger, _ filter: HistoryFilter) async throws {
        var counted = 0
        let seconds = try await Stopwatch.median(runs: Self.runs) {
            counted = try await ledger.tabCounts(filter).overview
        }
        guard counted > 0 else { throw BenchFailure(description: "\(name) counted nothing") }
        report.add(name + suffix, .cost(seconds * 1000, unit: "ms"))
    }

    private func measure(
        _ name: String,
        _ ledger: Ledger,
        _ filter: HistoryFilter,
        after cursor: PageCursor? = nil
    ) async throws {
        var count = 0
        let seconds = try await Stopwatch.median(runs: Self.runs) {
            count = try await ledger.list(filter, limit: 50, after: cursor).items.count
        }
        guard count > 0 else { throw BenchFailure(description: "\(name) found nothing") }
        report.add(name + suffix, .cost(seconds * 1000, unit: "ms"))
    }
}
