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
            case var .string(text):
                // The UTF-8 in place, no C string made per value. SQLite binds a nil pointer as
                // NULL, and an empty buffer may have one: an empty text binds from a literal.
                guard !text.isEmpty else {
                    sqlite3_bind_text(sqliteStatement, position, "", 0, Self.transient)
                    continue
                }
                text.withUTF8 { utf8 in
                    _ = utf8.withMemoryRebound(to: CChar.self) {
                        sqlite3_bind_text(sqliteStatement, position, $0.baseAddress, Int32($0.count), Self.transient)
                    }
                }
            case let .blob(data):
                _ = data.withUnsafeBytes {
                    sqlite3_bind_blob(sqliteStatement, position, $0.baseAddress, Int32($0.count), Self.transient)
                }
            }
        }
        try execute()
    }

    /// SQLite copies what is bound.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
