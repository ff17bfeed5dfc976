import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

/// The record and merge paths' binding through the C API (`Statement+Binding`,
/// `RecordRow.Values.bind`): every column arrives as bound, of its type, in the order a
/// statement names them, and no binding outlives the call that made it.
@Suite struct StatementBindingTests {
    private static let id = TransactionID(bytes: Array(1...16))!
    private static let replaced = TransactionID(bytes: Array(101...116))!

    private static func row(replaced: TransactionID?, hidden: Bool, state: [UInt8]) -> RecordRow.Values {
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
            changeSeq: 42,
            state: state
        )
    }

    @Test func everyColumnArrivesAsBoundAndTheBindingsAreClearedAfter() throws {
        let queue = try DatabaseQueue()
        let columns = RecordRow.columns.joined(separator: ", ")
        let (inserted, updated, unbound) = try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (\(columns))")
            let insert = try db.makeStatement(
                sql: "INSERT INTO t (\(columns)) VALUES (\(RecordRow.columns.map { _ in "?" }.joined(separator: ", ")))"
            )
            try insert.execute(
                binding: RecordRow.Column.allCases,
                of: Self.row(replaced: Self.replaced, hidden: true, state: Array(repeating: 9, count: 100_000))
            )
            let inserted = try Row.fetchOne(db, sql: "SELECT *, typeof(replaced) FROM t")!
            // The registers and then the id, as `RecordStore` updates them.
            let update = try db.makeStatement(
                sql:
                    "UPDATE t SET \(RecordRow.registerColumns.map { "\($0.rawValue) = ?" }.joined(separator: ", ")) WHERE id = ?"
            )
            try update.execute(
                binding: RecordRow.registerColumns + [.id],
                of: Self.row(replaced: nil, hidden: false, state: [5, 6])
            )
            let updated = try Row.fetchOne(db, sql: "SELECT * FROM t")!
            // Stepped again without binding, the statement sees NULL everywhere.
            try insert.execute()
            let unbound = try Int.fetchOne(db, sql: "SELECT count(*) FROM t WHERE id IS NULL AND state IS NULL")!
            return (inserted, updated, unbound)
        }
        let facts: [DatabaseValue] = [
            Data(1...16).databaseValue, 3.databaseValue, 1_751_371_300_123.databaseValue, 1.databaseValue,
            7.databaseValue, Data(101...116).databaseValue,
        ]
        let registers: [DatabaseValue] = [
            4.databaseValue, 1.databaseValue, 0.databaseValue, 42.databaseValue,
            Data(repeating: 9, count: 100_000).databaseValue,
        ]
        #expect(Array(inserted.databaseValues) == facts + registers + ["blob".databaseValue])
        let updatedRegisters: [DatabaseValue] = [
            4.databaseValue, 0.databaseValue, 1.databaseValue, 42.databaseValue, Data([5, 6]).databaseValue,
        ]
        // A register update leaves the facts' columns.
        #expect(Array(updated.databaseValues) == facts + updatedRegisters)
        #expect(unbound == 1)
    }

    @Test func idsBindInOrderForACursor() throws {
        let queue = try DatabaseQueue()
        let ids = [Self.replaced, Self.id]
        let (selected, unbound) = try queue.read { db in
            let statement = try db.makeStatement(sql: "SELECT ?1 UNION ALL SELECT ?2")
            statement.bind(ids)
            let selected = try Data.fetchAll(statement)
            statement.clearBindings()
            return (selected, try DatabaseValue.fetchAll(statement))
        }
        #expect(selected == [Data(101...116), Data(1...16)])
        #expect(unbound == [.null, .null])
    }
}
