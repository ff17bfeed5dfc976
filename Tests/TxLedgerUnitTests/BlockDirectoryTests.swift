import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

/// The directory of the records blocks hold, in runs of entries (`BlockDirectory`, schema v17):
/// runs never part entries that share a key, every record a load put in a block is found by its
/// id whatever vault loaded first, a damaged run is an error, and the migration from a row per
/// record keeps every entry.
struct BlockDirectoryTests {
    /// A ledger whose vaults "main" and "savings" were each loaded from a full change set, one
    /// after the other, and the records of each.
    private func loadedTwice() async throws -> (TestLedger, [ChangeSet]) {
        let source = try await TestLedger()
        try await source.ledger.record(try HistoryFixture.records(count: 1500))
        let sets = [try await source.ledger.changes(vault: "main"), try await source.ledger.changes(vault: "savings")]
        let device = try await TestLedger()
        for set in sets { try await device.ledger.merge(set) }
        return (device, sets)
    }

    private func entries(_ ledger: Ledger) async throws -> [RecordStore.BlockSlot] {
        try await ledger.database.pool.read { db in try BlockDirectory.entries(in: db, path: "") }
    }

    @Test func runsKeepTheEntriesThatShareAKeyTogether() async throws {
        // 400 ids in increasing order; ids 175 to 189 share their first 8 bytes, across the
        // point where a run of `runLength` (180) entries would end.
        func id(_ i: Int) -> TransactionID {
            let prefix = UInt64(175 <= i && i < 190 ? 175 : i) * 1000
            let suffix = UInt64(i)
            return TransactionID(
                bytes: (0..<8).map { UInt8(truncatingIfNeeded: prefix >> (56 - 8 * $0)) }
                    + (0..<8).map { UInt8(truncatingIfNeeded: suffix >> (56 - 8 * $0)) }
            )!
        }
        let written = (0..<400).map {
            RecordStore.BlockSlot(id: id($0), block: UInt32($0 / 7 + 1), slot: UInt16($0 % 7))
        }
        let test = try await TestLedger()
        let (runs, read, found) = try await test.ledger.database.pool.write { db in
            try BlockDirectory.replace(in: db) { add in for entry in written { try add(entry) } }
            let runs = try Row.fetchAll(db, sql: "SELECT first, length(entries) FROM record_block_ids ORDER BY first")
                .map { (first: $0[0] as Int64, count: ($0[1] as Int) / BlockDirectory.entryBytes) }
            let found = try written.map { try BlockDirectory.slot(of: $0.id, in: db, path: "") }
            return (runs, try BlockDirectory.entries(in: db, path: ""), found)
        }
        #expect(runs.map(\.count) == [190, 180, 30])
        #expect(runs.map(\.first) == [0, 190, 370].map { BlockDirectory.key(written[$0].id) })
        #expect(read.map(\.id) == written.map(\.id))
        #expect(found.map { $0.map { "\($0.block).\($0.slot)" } } == written.map { "\($0.block).\($0.slot)" })
        let absent = try await test.ledger.database.pool.read { db in
            try BlockDirectory.slot(of: TransactionID(bytes: [UInt8](repeating: 0xEE, count: 16))!, in: db, path: "")
        }
        #expect(absent == nil)
    }

    /// A second vault's load writes its entries among the first's: every record of both is found
    /// by its id, and the directory names every record of a block once, in order.
    @Test func aSecondVaultsLoadKeepsTheFirstsEntries() async throws {
        let (device, sets) = try await loadedTwice()
        let held = try await device.ledger.database.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record_cold") ?? -1
        }
        let vaults = try await device.ledger.database.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT vault) FROM record_block") ?? -1
        }
        #expect(vaults == 2)
        #expect(try await entries(device.ledger).count == held)
        for set in sets {
            for record in set.records {
                #expect(try await device.ledger.transaction(id: record.id) != nil, "\(record.id) not found")
            }
        }
        // Forgetting one vault leaves the other's entries, and finds them still.
        #expect(try await device.ledger.forgetVault("main") > 0)
        let left = try await device.ledger.database.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record_cold") ?? -1
        }
        #expect(left > 0)
        #expect(try await entries(device.ledger).count == left)
        for record in sets[1].records {
            #expect(try await device.ledger.transaction(id: record.id) != nil, "\(record.id) not found")
        }
    }

    /// A run whose entries are out of order, or that is not a whole number of entries, makes the
    /// directory unreadable for what reads it whole (forgetting a vault, which changes nothing
    /// then); a run that is not a whole number of entries makes a lookup through it an error.
    @Test func aDamagedRunIsAnError() async throws {
        let (device, _) = try await loadedTwice()
        let (first, bytes) = try await device.ledger.database.pool.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT first, entries FROM record_block_ids ORDER BY first LIMIT 1")!
            return (row[0] as Int64, Array(row[1] as Data))
        }
        let size = BlockDirectory.entryBytes
        let swapped = Data(bytes[size..<(2 * size)] + bytes[0..<size] + bytes[(2 * size)...])
        try await device.ledger.database.pool.write { db in
            try db.execute(sql: "UPDATE record_block_ids SET entries = ? WHERE first = ?", arguments: [swapped, first])
        }
        let before = try await device.ledger.list(HistoryFilter(), limit: 10_000).items
        await #expect(throws: LedgerError.self) { try await device.ledger.forgetVault("main") }
        #expect(try await device.ledger.list(HistoryFilter(), limit: 10_000).items == before)

        let cut = Data(bytes.dropLast(1))
        try await device.ledger.database.pool.writeWithoutTransaction { db in
            // The schema's check refuses such a run: a damaged page is what writes one.
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: "UPDATE record_block_ids SET entries = ? WHERE first = ?", arguments: [cut, first])
            try db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
        }
        await #expect(throws: LedgerError.self) { try await device.ledger.forgetVault("main") }
        #expect(try await device.ledger.list(HistoryFilter(), limit: 10_000).items == before)
        let inFirstRun = TransactionID(bytes: bytes[0..<16])!
        var message: String?
        do {
            // A count, which is Sendable: GRDB's asynchronous read, off the cooperative pool.
            _ = try await device.ledger.database.pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: "SELECT state FROM record_cold WHERE id = ?",
                    arguments: [Data(inFirstRun.bytes)]
                ).count
            }
        } catch let error as DatabaseError {
            message = error.message
        }
        #expect(message?.contains("the directory of record blocks is damaged") == true)
    }

    /// A file of v16 keeps a row per record in `record_cold_id`; the migration writes the same
    /// entries as runs and drops that table.
    @Test func theMigrationKeepsEveryEntry() async throws {
        let (device, sets) = try await loadedTwice()
        let before = try await entries(device.ledger)
        #expect(before.count > BlockDirectory.runLength)
        try await device.ledger.database.pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE record_cold_id (
                        id BLOB PRIMARY KEY CHECK (length(id) = 16),
                        block INTEGER NOT NULL,
                        slot INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    DROP TABLE record_block_ids;
                    DELETE FROM grdb_migrations WHERE identifier = 'v17: the directory in runs';
                    """
            )
            for entry in before {
                try db.execute(
                    sql: "INSERT INTO record_cold_id (id, block, slot) VALUES (?, ?, ?)",
                    arguments: [Data(entry.id.bytes), entry.block, entry.slot]
                )
            }
        }
        let upgraded = try await device.reopened()
        let (after, old) = try await upgraded.database.pool.read { db in
            (try BlockDirectory.entries(in: db, path: ""), try db.tableExists("record_cold_id"))
        }
        #expect(after.map { "\($0.id).\($0.block).\($0.slot)" } == before.map { "\($0.id).\($0.block).\($0.slot)" })
        #expect(!old)
        for record in sets.flatMap(\.records) {
            #expect(try await upgraded.transaction(id: record.id) != nil, "\(record.id) not found")
        }
    }
}
