import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

/// The `record` table's checks (migration v16): a write of a row builds no temporary index,
/// the checks refuse what the lists of values before them refused, and the migration keeps a
/// file's rows and makes the schema a new file has.
struct RecordTableChecksTests {
    /// A list of more than two values in a check is checked through a temporary index that
    /// SQLite builds each time the statement runs: once per row written.
    @Test func writingARowBuildsNoTemporaryIndex() async throws {
        let test = try await TestLedger()
        let columns = RecordRow.Column.allCases.map(\.rawValue)
        let insert =
            "INSERT INTO record (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
        let update =
            "UPDATE record SET \(RecordRow.registerColumns.map { "\($0.rawValue) = ?" }.joined(separator: ", ")) WHERE id = ?"
        let kindUpdate = "UPDATE record SET kind = ?, status = ? WHERE id = ?"
        // On the writer's connection: a read-only one compiles no check.
        try await test.ledger.database.pool.write { db in
            for sql in [insert, insert + " ON CONFLICT (id) DO NOTHING", update, kindUpdate] {
                let statement = try db.makeStatement(sql: "EXPLAIN " + sql)
                // Its parameters unbound: NULL, which a program does not depend on.
                statement.setUncheckedArguments(StatementArguments())
                let program = try Row.fetchAll(statement)
                #expect(!program.contains { $0["opcode"] == "OpenEphemeral" }, "\(sql)")
                // The checks are in the program (a read-only connection leaves them out):
                // each ends in a `Halt` with SQLITE_CONSTRAINT_CHECK (275).
                #expect(program.contains { $0["opcode"] == "Halt" && $0["p1"] == 275 }, "\(sql)")
            }
        }
    }

    @Test func theChecksRefuseWhatTheListsRefused() async throws {
        let test = try await TestLedger()
        try await test.ledger.database.pool.write { db in
            try db.execute(sql: "INSERT INTO vault (id, change_seq) VALUES ('v', 0)")
            func insert(kind: DatabaseValueConvertible, status: DatabaseValueConvertible) throws -> Bool {
                do {
                    try db.inSavepoint {
                        try db.execute(
                            sql: """
                                INSERT INTO record (id, vault, time, kind, chain, status, hidden, erased, change_seq, state)
                                VALUES (randomblob(16), 1, 0, ?, 1, ?, 0, 0, 0, x'00')
                                """,
                            arguments: [kind, status]
                        )
                        return .commit
                    }
                    return true
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                    return false
                }
            }
            for kind in 0...2 { #expect(try insert(kind: kind, status: 2)) }
            for status in 0...5 { #expect(try insert(kind: 0, status: status)) }
            // A text of an integer is stored as the integer (the column's affinity), as before.
            #expect(try insert(kind: "1", status: "3"))
            for kind: DatabaseValueConvertible in [-1, 3, 1.5, "send", Data([1])] {
                let accepted = try insert(kind: kind, status: 2)
                #expect(!accepted, "kind \(kind)")
            }
            for status: DatabaseValueConvertible in [-1, 6, 2.5, "confirmed", Data([2])] {
                let accepted = try insert(kind: 0, status: status)
                #expect(!accepted, "status \(status)")
            }
        }
    }

    /// A file of v15, whose checks list their values, keeps every row through the migration and
    /// ends with the schema of a new file (its indexes made again, not twice).
    @Test func theMigrationKeepsEveryRowAndMakesTheNewSchema() async throws {
        let test = try await TestLedger()
        try await test.ledger.record(try HistoryFixture.records(count: 40))
        // Rows of tables that refer to `record (num)`, which the rebuild must keep.
        #expect(try await test.ledger.clearHistory(vault: "savings") > 0)
        let fresh = try await test.ledger.database.pool.read(OtherLedgerFile.SchemaObject.fetchAll)
        let rows = "SELECT * FROM record ORDER BY num"
        let referring = "SELECT * FROM cleared_record ORDER BY record"
        @Sendable func values(_ db: Database) throws -> [[DatabaseValue]] {
            try (Row.fetchAll(db, sql: rows) + Row.fetchAll(db, sql: referring)).map { Array($0.databaseValues) }
        }
        let before = try await test.ledger.database.pool.read(values)
        let listed = try await test.ledger.list(HistoryFilter(), limit: 100).items
        let cleared = try await test.ledger.clearedRecords(vault: "savings")
        #expect(!cleared.isEmpty)
        #expect(before.count > 40)
        try await test.ledger.database.pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.inTransaction {
                let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'record'")!
                // A file of v15 has the same indexes, which the migration drops and makes again.
                let indexes = try String.fetchAll(
                    db,
                    sql: """
                        SELECT sql FROM sqlite_master
                        WHERE type = 'index' AND tbl_name = 'record' AND sql IS NOT NULL
                        """
                )
                #expect(indexes.count == 9)
                let withLists = sql.replacingOccurrences(of: #""record""#, with: "record_v15")
                    .replacingOccurrences(
                        of: "typeof(kind) = 'integer' AND kind BETWEEN 0 AND 2",
                        with: "kind IN (0, 1, 2)"
                    )
                    .replacingOccurrences(
                        of: "typeof(status) = 'integer' AND status BETWEEN 0 AND 5",
                        with: "status IN (0, 1, 2, 3, 4, 5)"
                    )
                #expect(withLists.contains("status IN (0, 1, 2, 3, 4, 5)"))
                try db.execute(
                    sql: """
                        \(withLists);
                        INSERT INTO record_v15 SELECT * FROM record;
                        DROP TABLE record;
                        ALTER TABLE record_v15 RENAME TO record;
                        DELETE FROM grdb_migrations WHERE identifier = 'v16: record checks without value lists';
                        """
                )
                for index in indexes { try db.execute(sql: index) }
                return .commit
            }
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        let listedChecks = try await test.ledger.database.pool.read {
            try String.fetchOne($0, sql: "SELECT sql FROM sqlite_master WHERE name = 'record'")!
        }
        #expect(listedChecks.contains("kind IN (0, 1, 2)"))
        let upgraded = try await test.reopened()
        let (schema, after, integrity) = try await upgraded.database.pool.read { db in
            (
                try OtherLedgerFile.SchemaObject.fetchAll(db), try values(db),
                try String.fetchOne(db, sql: "PRAGMA integrity_check")
            )
        }
        #expect(schema == fresh)
        #expect(after == before)
        #expect(integrity == "ok")
        #expect(try await upgraded.list(HistoryFilter(), limit: 100).items == listed)
        #expect(try await upgraded.clearedRecords(vault: "savings") == cleared)
    }
}
