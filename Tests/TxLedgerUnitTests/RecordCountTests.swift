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

    /// A merge inserts the row of a record that no row held when it read its batch without
    /// reading a stored row's columns (`RecordStore.saveNew`); a row that holds its id after
    /// all is written as any row, and moves its counts.
    @Test func aRowSavedAsNewThatARowHoldsIsWrittenAsAnyRow() async throws {
        let test = try await TestLedger()
        let records = try HistoryFixture.records(count: 12)
        try await test.ledger.record(records)
        let stored = records.first { $0.vaultId == "main" && $0.kind == .send && !$0.hidden }!
        let shown = try await test.ledger.tabCounts(HistoryFilter(vault: "main")).overview
        try await test.ledger.database.write { transaction in
            var state = try transaction.store.fetch(id: stored.id)!
            let facts = state.facts.stamp
            state.hidden = Register(true, stamp: Stamp(time: facts.time + (1 << 20), replica: facts.replica))
            var encoder = FrameEncoder(stored: try transaction.store.frameTables())
            let frame = encoder.frame(state)
            #expect(encoder.takeAddedEntries().texts.isEmpty)
            let row = try transaction.store.rowNumbers(vault: "main").values(of: state, frame: frame)!
            try transaction.store.saveNew(row)
        }
        #expect(try await test.ledger.transaction(id: stored.id)?.hidden == true)
        try await TabCountOracle.expectCountsOfListedRecords(test.ledger)
        #expect(try await test.ledger.tabCounts(HistoryFilter(vault: "main")).overview == shown - 1)
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
