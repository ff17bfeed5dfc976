import GRDB
import GRDBSQLite
import TxLedgerCore

/// A statement of the record write path (insert, upsert, register update), prepared and run
/// through the SQLite C API on the transaction's own connection (`Database.sqliteConnection`,
/// which GRDB documents as suitable for it): a row's values are bound in place, nothing boxed
/// per value. GRDB learns of the changes as its documentation says direct C calls must tell
/// it, through `Database.notifyChanges(in:)` (`RecordStore` calls it once per transaction), so
/// live observations see every write.
final class RecordWriteStatement {
    private let handle: OpaquePointer
    private let sql: String

    /// Prepares `sql` on `db`'s connection, for as long as this statement lives.
    init(_ db: Database, sql: String) throws {
        guard let connection = db.sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the connection is closed", sql: sql)
        }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: Self.message(connection), sql: sql)
        }
        handle = statement
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Runs the statement once with the values of `columns` of `row` bound to its parameters in
    /// order; the bindings are cleared before this returns.
    func execute(_ columns: [RecordRow.Column], of row: RecordRow.Values) throws {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        let code = row.bind(columns, to: handle) { sqlite3_step(handle) }
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: Self.message(sqlite3_db_handle(handle)),
                sql: sql
            )
        }
    }

    private static func message(_ connection: OpaquePointer?) -> String {
        connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "SQLite error"
    }
}
