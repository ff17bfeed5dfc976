import GRDB
import GRDBSQLite

extension Statement {
    /// Executes this statement with `values` bound to its parameters in order, bound through
    /// the SQLite C API: GRDB's `StatementArguments` is generic over sequences and, not
    /// specialized across modules, cost more than the insert itself on the merge and record
    /// paths. Execution itself stays GRDB's (`execute()`), so transaction observers and live
    /// observation see the change as usual.
    func execute(binding values: [DatabaseValue]) throws {
        // Marks the (empty) arguments as valid and bound; `execute()` then only resets the
        // statement, which keeps the bindings made here.
        setUncheckedArguments(StatementArguments())
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            switch value.storage {
            case .null: sqlite3_bind_null(sqliteStatement, position)
            case let .int64(number): sqlite3_bind_int64(sqliteStatement, position, number)
            case let .double(number): sqlite3_bind_double(sqliteStatement, position, number)
            case let .string(text): sqlite3_bind_text(sqliteStatement, position, text, -1, Self.transient)
            case let .blob(data):
                _ = data.withUnsafeBytes { sqlite3_bind_blob(sqliteStatement, position, $0.baseAddress, Int32($0.count), Self.transient) }
            }
        }
        try execute()
    }

    /// SQLite copies what is bound.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
