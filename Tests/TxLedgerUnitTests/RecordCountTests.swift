import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

/// `record_count` (migration v15): tab counts read from it equal the records a list shows, on
/// rows and blocks, after the migration fills it from a file that had none.
struct RecordCountTests {
    /// Filters answered from `record_count` (vault, chains, statuses, stage, hidden, replaced).
    static let countedFilters: [HistoryFilter] = [
        HistoryFilter(),
        HistoryFilter(vault: "main"),
        HistoryFilter(includeHidden: true, includeReplaced: true),
        HistoryFilter(statuses: [.confirmed, .failed]),
        HistoryFilter(vault: "main").inProgress,
        HistoryFilter().completed,
    ]

    /// Expects `ledger`'s tab counts under each of `countedFilters` to be the kinds of the
    /// records its list shows under the same filter.
    static func expectCountsOfListedRecords(
        _ ledger: Ledger,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for filter in countedFilters {
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

    @Test func theMigrationCountsTheRowsAndBlocksOfAFileWithoutCounts() async throws {
        let test = try await TestLedger()
        try await test.ledger.record(try HistoryFixture.records(count: 60))
        #expect(try await BlockFixture.moveSettledRecords(of: test.ledger).count > 10)
        try await test.ledger.database.pool.write { db in
            try db.execute(
                sql: """
                    DROP TABLE record_count;
                    DELETE FROM grdb_migrations WHERE identifier = 'v15: record counts';
                    """
            )
        }
        let upgraded = try await test.reopened()
        try await Self.expectCountsOfListedRecords(upgraded)
        #expect(try await upgraded.tabCounts().overview > 10)
    }

    /// A filter on what `record_count` does not keep (a time bound, a search) counts records.
    @Test func aFilterOnOtherFieldsCountsTheRecords() async throws {
        let test = try await TestLedger()
        try await test.ledger.record(try HistoryFixture.records(count: 60))
        let filter = HistoryFilter(since: HistoryFixture.start.addingTimeInterval(3600))
        #expect(!HistoryConditions.onlyCountedColumns(filter))
        let listed = try await test.ledger.list(filter, limit: Int.max).items
        #expect(listed.count > 0)
        #expect(try await test.ledger.tabCounts(filter).overview == listed.count)
    }
}
