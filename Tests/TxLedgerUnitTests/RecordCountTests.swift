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
        try await TabCountOracle.expectCountsOfListedRecords(upgraded)
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
