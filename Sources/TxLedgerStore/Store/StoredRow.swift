import GRDB
import GRDBSQLite
import TxLedgerCore

/// A row selected with `RecordRow.selection` from `RecordRow.source`, copied out of SQLite and
/// not yet decoded, so that it can be decoded on another thread than the connection's (a
/// merge's `FrameWorker`).
package struct StoredRow: Sendable {
    private let id: TransactionID?
    private let vault: String?
    private let frame: [UInt8]?
    private let time: Int64?
    /// The bytes of the row's stored frame (0 if it is not a blob).
    package var frameBytes: Int { frame?.count ?? 0 }
    /// The row's change sequence number, where the query reads it (`fetchStoredRows`).
    package let changeSeq: Int64?
    /// The row's counted columns, where the query reads them (`fetchStoredRows`): what a write
    /// of its registers moves its counts from (`RecordStore.saveRegisters(_:counted:)`).
    package let counted: RecordStore.CountedColumns?

    /// The row `statement` stands on, read through the SQLite C API: a value of another type
    /// than its column's is read as missing.
    init(_ statement: Statement) {
        let handle = statement.sqliteStatement
        func bytes(_ column: Int32) -> UnsafeRawBufferPointer? {
            guard sqlite3_column_type(handle, column) == SQLITE_BLOB else { return nil }
            // An empty BLOB has no address.
            return UnsafeRawBufferPointer(
                start: sqlite3_column_blob(handle, column),
                count: Int(sqlite3_column_bytes(handle, column))
            )
        }
        id = bytes(0).flatMap { TransactionID(bytes: $0) }
        vault =
            sqlite3_column_type(handle, 1) == SQLITE_TEXT
            ? String(
                decoding: UnsafeBufferPointer(
                    start: sqlite3_column_text(handle, 1),
                    count: Int(sqlite3_column_bytes(handle, 1))
                ),
                as: UTF8.self
            ) : nil
        frame = bytes(2).map(Array.init)
        time = sqlite3_column_type(handle, 3) == SQLITE_INTEGER ? sqlite3_column_int64(handle, 3) : nil
        func integer(_ column: Int32) -> Int64? {
            sqlite3_column_count(handle) > column && sqlite3_column_type(handle, column) == SQLITE_INTEGER
                ? sqlite3_column_int64(handle, column) : nil
        }
        changeSeq = integer(4)
        counted =
            if let vault = integer(5), let chain = integer(6), let kind = integer(7), let status = integer(8),
                let hidden = integer(9), let erased = integer(10)
            {
                RecordStore.CountedColumns(
                    vault: vault,
                    chain: chain,
                    kind: kind,
                    status: status,
                    hidden: hidden != 0,
                    erased: erased != 0
                )
            } else {
                nil
            }
    }

    /// The id the row is stored under (checked against its facts when it is decoded).
    package var recordID: TransactionID? { id }

    /// The row's `time` (its record's `timestamp_ms`), `nil` if not of its type.
    package var timestamp: Int64? { time }

    /// Whether the row, of `vault`, holds exactly `frame` at `time`: the frame a stored record
    /// would be written as (`FrameEncoder.storedFrameIfHeld`), compared without decoding it.
    package func holds(_ frame: [UInt8], time: Int64, vault: String) -> Bool {
        self.time == time && self.vault == vault && self.frame == frame
    }

    /// The record the row holds when its frame holds, byte for byte, the facts of `received`,
    /// of `vault`, whose stored frame's facts are `receivedFacts` (`FrameEncoder.storedFacts`):
    /// read without its facts, which are `received`'s, and the row's frame as spans, whose facts
    /// a merged state is written with (`FrameEncoder.frame(_:keepingFactsOf:)`). `nil` if the
    /// row does not hold those facts, or not at `received`'s time in `vault`: decode it whole.
    /// Specs/schema.md, "Merging a record whose row holds its facts".
    /// - Throws: `LedgerError.unreadableDatabase` if the rest of the row is not a valid record's.
    package func decode(
        sharingFactsOf received: RecordState,
        stored receivedFacts: StoredFrameFields,
        vault: String,
        tables: FrameTables,
        path: String
    ) throws -> (state: RecordState, frame: StoredFrameFields)? {
        let facts = received.facts.value
        guard let frame, let time, id == received.id, self.vault == vault, time == facts.timestamp.millis,
            let fields = StoredFrameFields(frame), fields.holdsFacts(of: receivedFacts)
        else { return nil }
        let state = try read(tables: tables, time: time, path: path) {
            try $0.record(fields.withoutFacts, facts: facts)
        }
        return (state, fields)
    }

    /// The record the row holds, in a file whose tables are `tables` (or a later version of
    /// them: entries are only ever appended).
    /// - Throws: `LedgerError.unreadableDatabase` if the row does not hold a valid record.
    package func decode(tables: FrameTables, path: String) throws -> RecordState {
        func malformed(_ reason: String) -> LedgerError { RecordRow.malformed(id, reason, path: path) }
        guard let vault, let frame, let time else { throw malformed("its vault, state or time is not of its type") }
        let state = try read(tables: tables, time: time, path: path) { try $0.record(frame, vault: vault, index: 0) }
        guard state.id == id else { throw malformed("its id is not the one its facts derive") }
        return state
    }

    /// What `body` reads with a decoder of the row's frame, a malformed frame thrown as the row's
    /// `unreadableDatabase`.
    private func read(
        tables: FrameTables,
        time: Int64,
        path: String,
        _ body: (inout FrameDecoder) throws -> RecordState
    ) throws -> RecordState {
        var decoder = FrameDecoder(stored: tables, timestamp: time)
        do {
            return try body(&decoder)
        } catch let error as BundleError where error.code == .malformedContent {
            throw RecordRow.malformed(id, error.reason ?? "", path: path)
        }
    }
}
