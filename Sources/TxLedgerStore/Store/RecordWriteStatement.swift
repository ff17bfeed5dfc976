import GRDB
import GRDBSQLite
import TxLedgerCore

/// A statement of the record write path (insert, upsert, register update, the read of a row's
/// counted columns before it is written, a merge's read of its batch's stored rows): prepared
/// once per connection by GRDB (`Database.cachedStatement`), and bound and stepped through the
/// SQLite C API on its `sqliteStatement`, which GRDB documents as suitable for it: a row's values
/// are bound in place, nothing boxed per value. GRDB learns of the changes as its documentation
/// says direct C calls must tell it, through `Database.notifyChanges(in:)` (`RecordStore` calls
/// it once per transaction), so live observations see every write. Nothing else runs these
/// statements' SQL.
struct RecordWriteStatement {
    /// GRDB's statement, which owns the handle.
    private let statement: Statement
    private var handle: SQLiteStatement { statement.sqliteStatement }

    /// The statement of `sql` on `db`'s connection, prepared on its first use there.
    init(_ db: Database, sql: String) throws {
        statement = try db.cachedStatement(sql: sql)
    }

    /// Runs the statement once with the values of `columns` of `row` bound to its parameters in
    /// order; the bindings are cleared before this returns. Returns whether it changed a row
    /// (`sqlite3_changes`, read here: GRDB's `changesCount` checks its queue first, 2% of the
    /// writer's samples of record.batch for two reads a record).
    @discardableResult
    func execute(_ columns: [RecordRow.Column], of row: RecordRow.Values) throws -> Bool {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        try check(row.bind(columns, to: handle) { sqlite3_step(handle) })
        return sqlite3_changes(sqlite3_db_handle(handle)) > 0
    }

    /// Runs the statement, a `SELECT` of the columns `record_count` counts by a row's id,
    /// once with `id`'s 16 bytes bound: the columns of the row with that id, `nil` if there is
    /// none. A write reads them before it changes the row (`RecordStore.countedColumns(ofRow:)`).
    func countedColumns(id: TransactionID) throws -> RecordStore.CountedColumns? {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        let code = id.withBytes { bytes in
            sqlite3_bind_blob(handle, 1, bytes.baseAddress, 16, nil)
            return sqlite3_step(handle)
        }
        guard code == SQLITE_ROW else {
            try check(code)
            return nil
        }
        return RecordStore.CountedColumns(
            vault: sqlite3_column_int64(handle, 0),
            chain: sqlite3_column_int64(handle, 1),
            kind: sqlite3_column_int64(handle, 2),
            status: sqlite3_column_int64(handle, 3),
            hidden: sqlite3_column_int64(handle, 4) != 0,
            erased: sqlite3_column_int64(handle, 5) != 0
        )
    }

    /// Runs the statement, a read of stored rows by id whose `arms` arms each take `ids` as
    /// their parameters, in order (`RecordStore.fetchStoredRows`), with each id's 16 bytes bound
    /// in place: the rows it gives.
    func storedRows(ids: [TransactionID], arms: Int) throws -> [StoredRow] {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16 * ids.count)
        for id in ids { id.withBytes { bytes.append(contentsOf: $0) } }
        return try bytes.withUnsafeBytes { bytes in
            for arm in 0..<arms {
                for index in ids.indices {
                    // SQLite reads the ids in place (`SQLITE_STATIC`, a nil destructor) while it steps.
                    let parameter = Int32(arm * ids.count + index + 1)
                    sqlite3_bind_blob(handle, parameter, bytes.baseAddress! + 16 * index, 16, nil)
                }
            }
            var rows: [StoredRow] = []
            while true {
                let code = sqlite3_step(handle)
                guard code == SQLITE_ROW else {
                    try check(code)
                    return rows
                }
                rows.append(StoredRow(statement))
            }
        }
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: Self.message(sqlite3_db_handle(handle)),
                sql: statement.sql
            )
        }
    }

    private static func message(_ connection: OpaquePointer?) -> String {
        connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "SQLite error"
    }
}
