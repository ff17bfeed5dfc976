import GRDB
import GRDBSQLite
import TxLedgerCore

extension RecordRow {
    /// The values of one record's row (`RecordRow.values`): made wherever the state is (a
    /// merge's worker makes them beside the writer) and bound straight through the SQLite C
    /// API, nothing boxed per value (`bind(_:to:_:)`).
    package struct Values: Sendable {
        let id: TransactionID
        let vault: Int64
        let time: Int64
        let kind: Int64
        let chain: Int64
        let replaced: TransactionID?
        let status: Int64
        let hidden: Bool
        let erased: Bool
        let changeSeq: Int64
        let state: [UInt8]

        /// Binds the values of `columns` to the parameters of `statement` in order and runs
        /// `body` (which executes it). The state is bound in place, so the bindings are
        /// cleared before this returns.
        func bind<Result>(_ columns: [Column], to statement: Statement, _ body: () throws -> Result) rethrows -> Result
        {
            let handle = statement.sqliteStatement
            defer { statement.clearBindings() }
            return try state.withUnsafeBytes { state in
                for (offset, column) in columns.enumerated() {
                    let position = Int32(offset + 1)
                    switch column {
                    case .id: statement.bind(id, at: position)
                    case .vault: sqlite3_bind_int64(handle, position, vault)
                    case .time: sqlite3_bind_int64(handle, position, time)
                    case .kind: sqlite3_bind_int64(handle, position, kind)
                    case .chain: sqlite3_bind_int64(handle, position, chain)
                    case .replaced:
                        if let replaced {
                            statement.bind(replaced, at: position)
                        } else {
                            sqlite3_bind_null(handle, position)
                        }
                    case .status: sqlite3_bind_int64(handle, position, status)
                    case .hidden: sqlite3_bind_int64(handle, position, hidden ? 1 : 0)
                    case .erased: sqlite3_bind_int64(handle, position, erased ? 1 : 0)
                    case .changeSeq: sqlite3_bind_int64(handle, position, changeSeq)
                    case .state:
                        // SQLite reads the frame in place (`SQLITE_STATIC`, a nil destructor). A
                        // frame is never empty; an empty buffer may have no address.
                        sqlite3_bind_blob(handle, position, state.baseAddress, Int32(state.count), nil)
                    }
                }
                return try body()
            }
        }
    }
}
