import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStore

/// Tab counts checked against the records a list shows: the counts of filters that
/// `record_count` answers (migration v15) must equal the kinds of the records listed under the
/// same filter, which reads no count.
package enum TabCountOracle {
    /// Filters answered from `record_count` (vault, chains, statuses, stage, hidden, replaced),
    /// every vault's overview among them.
    static func countedFilters(_ ledger: Ledger) async throws -> [HistoryFilter] {
        var filters = [
            HistoryFilter(),
            HistoryFilter(includeHidden: true, includeReplaced: true),
            HistoryFilter(statuses: [.confirmed, .failed]),
            HistoryFilter().inProgress,
            HistoryFilter().completed,
        ]
        for vault in try await ledger.vaults() {
            filters.append(HistoryFilter(vault: vault))
            filters.append(HistoryFilter(vault: vault, includeHidden: true).inProgress)
        }
        return filters
    }

    /// Expects `ledger`'s tab counts under each of `countedFilters` to be the kinds of the
    /// records its list shows under the same filter.
    package static func expectCountsOfListedRecords(
        _ ledger: Ledger,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for filter in try await countedFilters(ledger) {
            #expect(HistoryConditions.onlyCountedColumns(filter), sourceLocation: sourceLocation)
            let listed = try await ledger.list(filter, limit: Int.max).items
            #expect(
                try await ledger.tabCounts(filter)
                    == HistoryTabCounts(byKind: Dictionary(grouping: listed, by: \.kind).mapValues(\.count)),
                "\(filter)",
                sourceLocation: sourceLocation
            )
        }
    }
}
