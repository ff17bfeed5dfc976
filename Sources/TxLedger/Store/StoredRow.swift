import Foundation
import GRDB

/// A row selected with `RecordRow.selection` from `RecordRow.source`, copied out of SQLite and
/// not yet decoded, so that it can be decoded on another thread than the connection's (a
/// merge's `MergeWorker`).
struct StoredRow: Sendable {
    private let id: TransactionID?
    private let vault: String?
    private let frame: Data?
    private let time: Int64?

    init(_ row: Row) {
        id = RecordRow.blob(row[0]).flatMap { TransactionID(bytes: $0) }
        vault = String.fromDatabaseValue(row[1])
        frame = RecordRow.blob(row[2])
        time = Int64.fromDatabaseValue(row[3])
    }

    /// The record the row holds, in a file whose tables are `tables` (or a later version of
    /// them: entries are only ever appended).
    /// - Throws: `LedgerError.unreadableDatabase` if the row does not hold a valid record.
    func decode(tables: FrameTables, path: String) throws -> RecordState {
        func malformed(_ reason: String) -> LedgerError { RecordRow.malformed(id, reason, path: path) }
        guard let vault, let frame, let time else { throw malformed("its vault, state or time is not of its type") }
        var decoder = FrameDecoder(stored: tables, timestamp: time)
        let state: RecordState
        do {
            state = try decoder.record(Array(frame), vault: vault, index: 0)
        } catch let BundleError.malformedContent(reason) {
            throw malformed(reason)
        }
        guard state.id == id else { throw malformed("its id is not the one its facts derive") }
        return state
    }
}
