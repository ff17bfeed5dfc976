import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

/// A record kept in a block is written as a row is: two copies of one ledger (same replica,
/// same clock), one with its settled records moved into blocks (`BlockFixture`), take the same
/// writes, merges, clears and removals, and hold the same history after each.
struct BlockWriteTests {
    private func twins() async throws -> (rows: TestLedger, blocks: TestLedger) {
        let rows = try await TestLedger()
        try await rows.ledger.record(try HistoryFixture.records(count: 60))
        let blocks = try await TestLedger(copyOf: rows.ledger, clock: ManualClock())
        #expect(try await BlockFixture.moveSettledRecords(of: blocks.ledger).count > 10)
        return (rows, blocks)
    }

    private func expectSame(
        _ rows: Ledger,
        _ blocks: Ledger,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        #expect(try await rows.all() == blocks.all(), sourceLocation: sourceLocation)
        for ledger in [rows, blocks] {
            try await TabCountOracle.expectCountsOfListedRecords(ledger, sourceLocation: sourceLocation)
        }
        for vault in try await rows.vaults() {
            let held = try await rows.changes(vault: vault).records.sorted { $0.id < $1.id }
            let inBlocks = try await blocks.changes(vault: vault).records.sorted { $0.id < $1.id }
            #expect(held == inBlocks, "\(vault)", sourceLocation: sourceLocation)
        }
    }

    /// How many records of `ledger` are in blocks.
    private func inBlocks(_ ledger: Ledger) async throws -> Int {
        try await ledger.database.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record_cold") ?? 0 }
    }

    @Test func localWritesMoveARecordOutOfItsBlock() async throws {
        let (rows, blocks) = try await twins()
        let before = try await inBlocks(blocks.ledger)
        let settled = try await rows.ledger.all().filter { $0.status.isTerminal && !$0.hidden }
        for ledger in [rows.ledger, blocks.ledger] {
            _ = try await ledger.setNote("checked twice", for: settled[0].id)
            _ = try await ledger.setLabels(["tax"], for: settled[1].id)
            _ = try await ledger.setHidden(true, for: settled[2].id)
            _ = try await ledger.updateStatus(settled[3].id, to: .failed(reason: "dropped"))
            _ = try await ledger.removeFromThisDevice(settled[4].id)
        }
        try await expectSame(rows.ledger, blocks.ledger)
        #expect(try await inBlocks(blocks.ledger) == before - 5)
    }

    @Test func aMergeWritesTheRecordsItChanges() async throws {
        let (rows, blocks) = try await twins()
        let other = try await TestLedger(copyOf: rows.ledger, clock: ManualClock())
        other.clock.advance(by: 60)
        for record in try await other.ledger.all().filter({ $0.status.isTerminal }).prefix(12) {
            _ = try await other.ledger.setNote("from the laptop", for: record.id)
        }
        let changes = try await other.ledger.changes(vault: "main")
        _ = try await rows.ledger.merge(changes)
        _ = try await blocks.ledger.merge(changes)
        try await expectSame(rows.ledger, blocks.ledger)
    }

    @Test func aClearHidesRecordsInBlocksAndARestoreBringsThemBack() async throws {
        let (rows, blocks) = try await twins()
        #expect(try await rows.ledger.clearHistory(vault: "main") == blocks.ledger.clearHistory(vault: "main"))
        try await expectSame(rows.ledger, blocks.ledger)
        #expect(try await rows.ledger.restoreCleared(vault: "main") == blocks.ledger.restoreCleared(vault: "main"))
        try await expectSame(rows.ledger, blocks.ledger)
    }

    @Test func forgettingAVaultDeletesItsBlocks() async throws {
        let (rows, blocks) = try await twins()
        #expect(try await rows.ledger.forgetVault("savings") == blocks.ledger.forgetVault("savings"))
        try await expectSame(rows.ledger, blocks.ledger)
        let (orphans, entries, cold) = try await blocks.ledger.database.pool.read { db in
            (
                try Int.fetchOne(
                    db,
                    sql: "SELECT COUNT(*) FROM record_block WHERE vault NOT IN (SELECT num FROM vault)"
                ),
                try BlockFixture.directoryEntries(db),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record_cold")
            )
        }
        #expect(orphans == 0)
        #expect(entries == cold)
    }
}
