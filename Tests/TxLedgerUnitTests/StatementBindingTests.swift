import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerTestSupport

/// `Statement.execute(binding:)`, the record and merge paths' binding through the C API: every
/// kind of value arrives as bound, texts as text (an empty one too, never NULL).
@Suite struct StatementBindingTests {
    @Test func everyKindOfValueArrivesAsBound() throws {
        let queue = try DatabaseQueue()
        let values: [DatabaseValue] = [
            .null, 42.databaseValue, 1.5.databaseValue, "".databaseValue, "héllo, 🌍".databaseValue,
            "two\nlines".databaseValue, Data([0, 1, 2]).databaseValue,
            String(repeating: "x", count: 100_000).databaseValue,
        ]
        let rows = try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (position INTEGER PRIMARY KEY, value)")
            let insert = try db.makeStatement(sql: "INSERT INTO t (position, value) VALUES (?, ?)")
            for (position, value) in values.enumerated() {
                try insert.execute(binding: [position.databaseValue, value])
            }
            return try Row.fetchAll(db, sql: "SELECT value, typeof(value) AS type FROM t ORDER BY position")
        }
        #expect(rows.map { $0["value"] as DatabaseValue } == values)
        #expect(
            rows.map { $0["type"] as String } == ["null", "integer", "real", "text", "text", "text", "blob", "text"]
        )
    }
}
