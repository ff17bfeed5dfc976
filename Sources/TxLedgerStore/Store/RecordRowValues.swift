import GRDB
import GRDBSQLite
import TxLedgerCore

extension RecordRow {
    /// The values of one record's row (`RecordRow.values`): made wherever the state is (a
    /// merge's worker makes them beside the writer) and bound straight through the SQLite C
    /// API, nothing boxed per value (`bind(_:to:_:)`, `RecordWriteStatement`).
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
        let disputed: Bool
        let changeSeq: Int64
        let state: [UInt8]

        /// Binds the values of `columns` to the parameters of `statement` in order and runs
        /// `body` (which steps it). The state is bound in place (`SQLITE_STATIC`), so the
        /// caller clears the bindings before `body`'s result outlives this call
        /// (`RecordWriteStatement.execute`).
        func bind<Result>(
            _ columns: [Column],
            to statement: OpaquePointer,
            _ body: () throws -> Result
        ) rethrows
            -> Result
        {
            try state.withUnsafeBytes { state in
                for (offset, column) in columns.enumerated() {
                    let position = Int32(offset + 1)
                    switch column {
                    case .id: Self.bind(id, at: position, to: statement)
                    case .vault: sqlite3_bind_int64(statement, position, vault)
                    case .time: sqlite3_bind_int64(statement, position, time)
                    case .kind: sqlite3_bind_int64(statement, position, kind)
                    case .chain: sqlite3_bind_int64(statement, position, chain)
                    case .replaced:
                        if let replaced {
                            Self.bind(replaced, at: position, to: statement)
                        } else {
                            sqlite3_bind_null(statement, position)
                        }
                    case .status: sqlite3_bind_int64(statement, position, status)
                    case .hidden: sqlite3_bind_int64(statement, position, hidden ? 1 : 0)
                    case .erased: sqlite3_bind_int64(statement, position, erased ? 1 : 0)
                    case .disputed: sqlite3_bind_int64(statement, position, disputed ? 1 : 0)
                    case .changeSeq: sqlite3_bind_int64(statement, position, changeSeq)
                    case .state:
                        // SQLite reads the frame in place (`SQLITE_STATIC`, a nil destructor). A
                        // frame is never empty; an empty buffer may have no address.
                        sqlite3_bind_blob(statement, position, state.baseAddress, Int32(state.count), nil)
                    }
                }
                return try body()
            }
        }

        /// Binds an id's 16 bytes, which SQLite copies, to parameter `position`.
        private static func bind(_ id: TransactionID, at position: Int32, to statement: OpaquePointer) {
            _ = id.withBytes { sqlite3_bind_blob(statement, position, $0.baseAddress, 16, transient) }
        }

        /// SQLite copies what is bound.
        private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    }
}
