import GRDBSQLite

/// The physical limit for the ledger's SQLite work: the SQLite C API with nothing on top, on the
/// same schema and pragmas as a ledger (WAL, synchronous=NORMAL, foreign keys).
final class RawSQLite {
    enum Value {
        case null
        case integer(Int64)
        case text(String)
        case blob([UInt8])
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private var db: OpaquePointer?

    init(path: String) throws {
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
            throw Failure(description: "cannot open \(path)")
        }
        try execute(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -65536"
        )
    }

    deinit { sqlite3_close_v2(db) }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
    }

    /// The stored (not generated) columns of `table`, in order.
    func columns(of table: String) throws -> [String] {
        try rows("PRAGMA table_info(\(table))").map { row in
            guard case let .text(name) = row[1] else { throw Failure(description: "unexpected table_info row") }
            return name
        }
    }

    func rows(_ sql: String) throws -> [[Value]] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        var result: [[Value]] = []
        let width = sqlite3_column_count(statement)
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW:
                result.append(
                    (0..<width).map { column in
                        switch sqlite3_column_type(statement, column) {
                        case SQLITE_NULL: .null
                        case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
                        case SQLITE_BLOB:
                            .blob(
                                Array(
                                    UnsafeRawBufferPointer(
                                        start: sqlite3_column_blob(statement, column),
                                        count: Int(sqlite3_column_bytes(statement, column))
                                    )
                                )
                            )
                        default: .text(String(cString: sqlite3_column_text(statement, column)))
                        }
                    }
                )
            case SQLITE_DONE: return result
            default: throw failure(sql)
            }
        }
    }

    /// Runs `sql` once per row with one prepared statement: all rows in one transaction, or
    /// each row in its own.
    /// Writes `rows` with `sql`, committing every `rowsPerTransaction` rows (and at the end).
    func write(_ rows: [[Value]], sql: String, rowsPerTransaction: Int) throws {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        for (offset, row) in rows.enumerated() {
            if offset % rowsPerTransaction == 0 { try execute("BEGIN IMMEDIATE") }
            for (index, value) in row.enumerated() {
                let position = Int32(index + 1)
                switch value {
                case .null: sqlite3_bind_null(statement, position)
                case let .integer(number): sqlite3_bind_int64(statement, position, number)
                case let .text(text): sqlite3_bind_text(statement, position, text, -1, Self.transient)
                case let .blob(bytes):
                    _ = bytes.withUnsafeBytes {
                        sqlite3_bind_blob(statement, position, $0.baseAddress, Int32($0.count), Self.transient)
                    }
                }
            }
            guard sqlite3_step(statement) == SQLITE_DONE else { throw failure(sql) }
            sqlite3_reset(statement)
            if offset % rowsPerTransaction == rowsPerTransaction - 1 || offset == rows.count - 1 {
                try execute("COMMIT")
            }
        }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { throw failure(sql) }
        return statement
    }

    private func failure(_ sql: String) -> Failure {
        Failure(description: "\(String(cString: sqlite3_errmsg(db))) in: \(sql.prefix(80))")
    }

    /// SQLite copies the bound text (as GRDB binds it).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
