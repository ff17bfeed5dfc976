import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

/// `record_cold` (CRecordBlocks) over `record_block`: the settled rows of the history fixture,
/// moved into blocks of three, come back through the virtual table with every column, in
/// history order either way, by id, and filtered as SQL asks; a damaged block is an error.
struct RecordBlockTests {
    static let columns = BlockFixture.columns

    typealias Moved = BlockFixture.Moved
    static let blockChangeSeq = BlockFixture.changeSeq

    private func frozen(capacity: Int = 3) async throws -> (TestLedger, [Moved]) {
        let test = try await TestLedger()
        try await test.ledger.record(try HistoryFixture.records(count: 60))
        return (test, try await BlockFixture.moveSettledRecords(of: test.ledger, capacity: capacity))
    }

    /// `row` with the change number a block gives its records.
    private static func inBlock(_ row: Moved) -> [DatabaseValue] {
        RecordRow.columns.map { $0 == "change_seq" ? blockChangeSeq.databaseValue : row[$0]! }
    }

    private static func int(_ row: Moved, _ column: String) -> Int64 { Int64.fromDatabaseValue(row[column]!)! }
    private static func data(_ row: Moved, _ column: String) -> Data { Data.fromDatabaseValue(row[column]!)! }

    @Test func everyMovedRowComesBackWithItsColumns() async throws {
        let (test, moved) = try await frozen()
        #expect(moved.count > 10)
        let cold = try await test.ledger.database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.columns) FROM record_cold ORDER BY vault, time, id").map { row in
                RecordRow.columns.map { row[$0] as DatabaseValue }
            }
        }
        #expect(cold == moved.map(Self.inBlock))
        let blocks = try await test.ledger.database.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record_block")
        }
        let perVault = Dictionary(grouping: moved) { Self.int($0, "vault") }.values
        #expect(blocks == perVault.reduce(0) { $0 + ($1.count + 2) / 3 })
    }

    /// A vault's rows come in history order, newest first or oldest first, without a sort, and
    /// a time bound and a limit stop the walk where SQL asks.
    @Test func aVaultsRowsComeInHistoryOrderWithoutASort() async throws {
        let (test, moved) = try await frozen()
        let vault = Self.int(moved[0], "vault")
        let mine = moved.filter { Self.int($0, "vault") == vault }
        let times = mine.map { Self.int($0, "time") }
        let bound = times[times.count / 2]
        for descending in [true, false] {
            let order = descending ? "DESC" : "ASC"
            let sql = """
                SELECT id FROM record_cold WHERE vault = ? AND time <= ?
                ORDER BY time \(order), id \(order) LIMIT 5
                """
            let (ids, plan) = try await test.ledger.database.pool.read { db in
                (
                    try Data.fetchAll(db, sql: sql, arguments: [vault, bound]),
                    try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: [vault, bound])
                        .map { $0["detail"] as String }.joined(separator: "\n")
                )
            }
            let expected = mine.filter { Self.int($0, "time") <= bound }
            let ordered = descending ? Array(expected.reversed()) : expected
            #expect(ids == ordered.prefix(5).map { Self.data($0, "id") })
            #expect(plan.contains("VIRTUAL TABLE"), "\(plan)")
            #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
        }
    }

    @Test func aRecordIsFoundByIdUntilItIsThawed() async throws {
        let (test, moved) = try await frozen()
        let id = TransactionID(bytes: Array(Self.data(moved[4], "id")))!
        try await test.ledger.database.pool.write { db in
            for row in moved {
                let found = try Row.fetchOne(
                    db,
                    sql: "SELECT \(Self.columns) FROM record_cold WHERE id = ?",
                    arguments: [Self.data(row, "id")]
                )
                #expect(found.map { row in RecordRow.columns.map { row[$0] as DatabaseValue } } == Self.inBlock(row))
            }
            let store = RecordStore(db, path: "", changeSeq: 9)
            try store.thaw(id)
            let key = Data(id.bytes)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record_cold WHERE id = ?", arguments: [key]) == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record_cold") == moved.count - 1)
            let row = try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM record WHERE id = ?", arguments: [key])
            #expect(row.map { row in RecordRow.columns.map { row[$0] as DatabaseValue } } == Self.inBlock(moved[4]))
            // The block's own row is not written again: its superseded bit is a row of its own.
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record_block_superseded") == 1)
            try store.thaw(id)  // a row already: nothing to do
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE id = ?", arguments: [key]) == 1)
        }
    }

    /// Conditions on the codes a block's rows may hold: none is in progress, erased or disputed.
    @Test func conditionsOnCodesSelectWhatTheyName() async throws {
        let (test, moved) = try await frozen()
        let vault = Self.int(moved[0], "vault")
        let count = { (condition: String) in
            try await test.ledger.database.pool.read { db in
                try Int.fetchOne(
                    db,
                    sql: "SELECT COUNT(*) FROM record_cold WHERE vault = ? AND \(condition)",
                    arguments: [vault]
                ) ?? -1
            }
        }
        let mine = moved.filter { Self.int($0, "vault") == vault }
        func counted(_ include: (Moved) -> Bool) -> Int { mine.filter(include).count }
        #expect(try await count("status < 2 AND kind <> 2") == 0)
        #expect(try await count("erased = 1") == 0)
        #expect(try await count("disputed = 1") == 0)
        #expect(try await count("status = 3") == counted { Self.int($0, "status") == 3 })
        #expect(try await count("kind = 1") == counted { Self.int($0, "kind") == 1 })
        #expect(
            try await count("kind <> 1 AND hidden = 0")
                == counted { Self.int($0, "kind") != 1 && Self.int($0, "hidden") == 0 }
        )
        #expect(try await count("change_seq > 7") == 0)
        #expect(try await count("change_seq > 6") == mine.count)
    }

    /// Any byte of a block changed: the read gives rows or an error, never a read out of
    /// bounds (which the sanitizers and the process would see), and a broken shape is named.
    @Test func aDamagedBlockIsAnError() async throws {
        let (test, moved) = try await frozen(capacity: 8)
        let ids = moved.map { Self.data($0, "id") }
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        let (num, rows) = try await test.ledger.database.pool.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT num, rows FROM record_block ORDER BY num LIMIT 1")!
            return (row[0] as Int64, Array(row[1] as Data))
        }
        var state: UInt64 = 36
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var errors = 0
        for round in 0..<300 {
            var damaged = rows
            if round == 0 {
                damaged[4] ^= 0xFF  // the first offset
            } else {
                let index = Int(next() % UInt64(damaged.count))
                damaged[index] = UInt8(truncatingIfNeeded: next())
            }
            let blob = Data(damaged)
            // Every third round, superseded bits of any length up to 3 bytes too (a block of 8
            // rows has one byte of them).
            let bits = round % 3 == 2 ? Data((0..<Int(next() % 4)).map { _ in UInt8(truncatingIfNeeded: next()) }) : nil
            do {
                try await test.ledger.database.pool.write { db in
                    try db.execute(sql: "UPDATE record_block SET rows = ? WHERE num = ?", arguments: [blob, num])
                    if let bits {
                        try db.execute(
                            sql: "INSERT OR REPLACE INTO record_block_superseded (block, bits) VALUES (?, ?)",
                            arguments: [num, bits]
                        )
                    }
                    _ = try Row.fetchAll(db, sql: "SELECT \(Self.columns) FROM record_cold")
                    _ = try Row.fetchAll(db, sql: "SELECT id FROM record_cold WHERE vault = 1 ORDER BY time DESC")
                    // One row at a time, through the directory (`readRow`).
                    _ = try Row.fetchAll(
                        db,
                        sql: "SELECT state FROM record_cold WHERE id IN (\(marks))",
                        arguments: StatementArguments(ids)
                    )
                }
            } catch let error as DatabaseError {
                if round == 0 { #expect(error.message?.contains("record block \(num) is damaged") == true) }
                errors += 1
            }
        }
        #expect(errors > 0)
    }
}

/// Another ledger file with blocks (`merge(ledgerAt:)`, read through `OtherLedgerFile`): its
/// records in blocks are merged as its rows are, and a damaged block refuses the file whole.
struct OtherLedgerBlockTests {
    @Test func anotherLedgersRecordsInBlocksAreMerged() async throws {
        let other = try await TestLedger()
        try await other.ledger.record(try HistoryFixture.records(count: 60))
        let expected = try await other.ledger.all()
        _ = try await BlockFixture.moveSettledRecords(of: other.ledger)
        let device = try await TestLedger()
        let report = try await device.ledger.merge(ledgerAt: other.ledger.path)
        #expect(report.recordsAdded == 60)
        #expect(try await device.ledger.all() == expected)
    }

    @Test func aDamagedBlockInAnotherLedgerFileChangesNothing() async throws {
        let other = try await TestLedger()
        try await other.ledger.record(try HistoryFixture.records(count: 60))
        _ = try await BlockFixture.moveSettledRecords(of: other.ledger)
        try await other.ledger.database.pool.write { db in
            try db.execute(sql: "UPDATE record_block SET rows = substr(rows, 1, length(rows) - 1) WHERE num = 2")
        }
        let device = try await TestLedger()
        try await device.ledger.record(try HistoryFixture.record(1))
        let before = try await device.ledger.all()
        await #expect {
            _ = try await device.ledger.merge(ledgerAt: other.ledger.path)
        } throws: { error in
            guard let error = error as? LedgerError else { return false }
            return error.code == .unreadableDatabase && error.reason?.contains("damaged") == true
        }
        #expect(try await device.ledger.all() == before)
    }
}
