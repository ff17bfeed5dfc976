import GRDB
import GRDBSQLite
import TxLedgerCore

/// Binding through the SQLite C API on the merge, record and lookup paths: GRDB's
/// `StatementArguments` is generic over sequences and, not specialized across modules, cost
/// more than the insert itself. Execution itself stays GRDB's (`execute()`, cursors), so
/// transaction observers and live observation see each change as usual.
extension Statement {
    /// Executes this statement with the values of `columns` of `row` bound to its parameters
    /// in order (`RecordRow.Values.bind`).
    func execute(binding columns: [RecordRow.Column], of row: RecordRow.Values) throws {
        markBound()
        try row.bind(columns, to: self) { try execute() }
    }

    /// Binds `ids`, as 16-byte BLOBs, to this statement's first parameters, for a cursor over
    /// it to run with; `clearBindings()` afterwards.
    func bind(_ ids: [TransactionID]) {
        markBound()
        for (index, id) in ids.enumerated() { bind(id, at: Int32(index + 1)) }
    }

    /// Binds an id's 16 bytes, which SQLite copies, to parameter `position`.
    func bind(_ id: TransactionID, at position: Int32) {
        _ = id.withBytes { sqlite3_bind_blob(sqliteStatement, position, $0.baseAddress, 16, Self.transient) }
    }

    /// Sets every parameter back to NULL, so that no binding outlives what it points to.
    func clearBindings() {
        sqlite3_clear_bindings(sqliteStatement)
    }

    /// Marks the (empty) arguments as valid and bound: `execute()` and cursors then only reset
    /// the statement, which keeps the bindings made through the C API.
    private func markBound() {
        setUncheckedArguments(StatementArguments())
    }

    /// SQLite copies what is bound.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
