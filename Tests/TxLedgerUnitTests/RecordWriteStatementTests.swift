import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

/// The record and merge paths' statements (`RecordWriteStatement`, `RecordRow.Values.bind`):
/// every column arrives as it was made, of its type, in the order a statement names them, and a
/// failing step is GRDB's `DatabaseError`.
@Suite struct RecordWriteStatementTests {
    private static let id = TransactionID(bytes: Array(1...16))!
    private static let replaced = TransactionID(bytes: Array(101...116))!

    private static func row(
        id: TransactionID = id,
        replaced: TransactionID?,
        hidden: Bool,
        state: [UInt8]
    ) -> RecordRow.Values {
        RecordRow.Values(
            id: id,
            vault: 3,
            time: 1_751_371_300_123,
            kind: 1,
            chain: 7,
            replaced: replaced,
            status: 4,
            hidden: hidden,
            erased: !hidden,
            disputed: hidden,
            changeSeq: 42,
            state: state
        )
    }

    @Test func everyColumnArrivesAsMade() throws {
        let queue = try DatabaseQueue()
        let columns = RecordRow.columns.joined(separator: ", ")
        let (inserted, updated) = try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (\(columns))")
            let insert = try RecordWriteStatement(
                db,
                sql: "INSERT INTO t (\(columns)) VALUES (\(RecordRow.columns.map { _ in "?" }.joined(separator: ", ")))"
            )
            try insert.execute(
                RecordRow.Column.allCases,
                of: Self.row(replaced: Self.replaced, hidden: true, state: Array(repeating: 9, count: 100_000))
            )
            let inserted = try Row.fetchOne(db, sql: "SELECT *, typeof(replaced) FROM t")!
            // The registers and then the id, as `RecordStore` updates them.
            let update = try RecordWriteStatement(
                db,
                sql:
                    "UPDATE t SET \(RecordRow.registerColumns.map { "\($0.rawValue) = ?" }.joined(separator: ", ")) WHERE id = ?"
            )
            try update.execute(
                RecordRow.registerColumns + [.id],
                of: Self.row(replaced: nil, hidden: false, state: [5, 6])
            )
            return (inserted, try Row.fetchOne(db, sql: "SELECT * FROM t")!)
        }
        let facts: [DatabaseValue] = [
            Data(1...16).databaseValue, 3.databaseValue, 1_751_371_300_123.databaseValue, 1.databaseValue,
            7.databaseValue, Data(101...116).databaseValue,
        ]
        let registers: [DatabaseValue] = [
            4.databaseValue, 1.databaseValue, 0.databaseValue, 42.databaseValue,
            Data(repeating: 9, count: 100_000).databaseValue, 1.databaseValue,
        ]
        #expect(Array(inserted.databaseValues) == facts + registers + ["blob".databaseValue])
        let updatedRegisters: [DatabaseValue] = [
            4.databaseValue, 0.databaseValue, 1.databaseValue, 42.databaseValue, Data([5, 6]).databaseValue,
            0.databaseValue,
        ]
        // A register update leaves the facts' columns.
        #expect(Array(updated.databaseValues) == facts + updatedRegisters)
    }

    @Test func aFailingStepIsADatabaseError() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id BLOB PRIMARY KEY, state BLOB NOT NULL)")
            let insert = try RecordWriteStatement(db, sql: "INSERT INTO t (id, state) VALUES (?, ?)")
            let row = Self.row(replaced: nil, hidden: false, state: [1])
            try insert.execute([.id, .state], of: row)
            #expect(throws: DatabaseError.self) { try insert.execute([.id, .state], of: row) }
            // The statement is usable again after a failure.
            try insert.execute(
                [.id, .state],
                of: Self.row(id: Self.replaced, replaced: nil, hidden: false, state: [2])
            )
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == 2)
        }
    }
}
