import Foundation
import GRDB
import GRDBSQLite
import TxLedgerCore

/// `record_count` (Specs/schema.md, "Migration `v15: record counts`"): how many records of each
/// vault have each value of the columns tab counts filter on. A write notes what it adds and
/// takes away (`count(_:_:)`), and the transaction writes the sums once, before it commits
/// (`writeCounts`): a trigger per row made every write of a record keep a statement journal
/// (a 100k import into 100k took about a third longer).
extension RecordStore {
    /// The columns a record is counted under.
    package struct CountedColumns: Hashable, Sendable {
        let vault: Int64
        let chain: Int64
        let kind: Int64
        let status: Int64
        let hidden: Bool
        let erased: Bool
    }

    /// Notes `delta` more records under `columns`.
    func count(_ columns: CountedColumns, _ delta: Int) {
        countChanges[columns, default: 0] += delta
    }

    /// The counted columns of the row of `record` with id `id`, if there is one.
    func countedColumns(ofRow id: TransactionID) throws -> CountedColumns? {
        try RecordWriteStatement(
            db,
            sql: "SELECT vault, chain, kind, status, hidden, erased FROM record WHERE id = ?"
        ).countedColumns(id: id)
    }

    /// Writes the counts this transaction changed; `LedgerDatabase.write` calls it before the
    /// commit.
    package func writeCounts() throws {
        for (columns, delta) in countChanges where delta != 0 {
            try db.cachedStatement(
                sql: """
                    INSERT INTO record_count (vault, chain, kind, status, hidden, erased, count)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT DO UPDATE SET count = count + excluded.count
                    """
            ).execute(arguments: [
                columns.vault, columns.chain, columns.kind, columns.status, columns.hidden, columns.erased, delta,
            ])
        }
        countChanges = [:]
    }

    /// Forgets the counts of vault number `vault`, whose records are all deleted.
    func dropCounts(vault: Int64) throws {
        countChanges = countChanges.filter { $0.key.vault != vault }
        try db.execute(sql: "DELETE FROM record_count WHERE vault = ?", arguments: [vault])
    }

    /// The counted columns of row `slot` of block `block` of vault number `vault`, or `nil` if
    /// the block's blob does not hold such a row. Reads only the row's fixed part (SQLite's
    /// incremental blob reading), not the block's blob.
    func countedColumns(block: UInt32, slot: UInt16, vault: Int64) -> CountedColumns? {
        var handle: OpaquePointer?
        let opened = sqlite3_blob_open(db.sqliteConnection, "main", "record_block", "rows", Int64(block), 0, &handle)
        defer { sqlite3_blob_close(handle) }
        guard opened == SQLITE_OK, let handle else { return nil }
        let size = Int(sqlite3_blob_bytes(handle))
        func read(_ count: Int, at offset: Int) -> [UInt8]? {
            guard offset >= 0, offset + count <= size else { return nil }
            var bytes = [UInt8](repeating: 0, count: count)
            let code = bytes.withUnsafeMutableBytes {
                sqlite3_blob_read(handle, $0.baseAddress, Int32(count), Int32(offset))
            }
            return code == SQLITE_OK ? bytes : nil
        }
        guard let offset = read(4, at: RecordBlock.offsetPosition(of: Int(slot))),
            let fixed = read(RecordBlock.fixedBytes, at: RecordBlock.offset(in: offset))
        else { return nil }
        return RecordBlock.countedColumns(ofFixedPart: fixed, vault: vault)
    }
}

extension RecordStore.CountedColumns {
    /// The columns `row` is counted under.
    init(_ row: RecordRow.Values) {
        self.init(
            vault: row.vault,
            chain: row.chain,
            kind: row.kind,
            status: row.status,
            hidden: row.hidden,
            erased: row.erased
        )
    }

    /// These columns with the status, hidden and erased of `row`: what a write of a stored
    /// record's registers changes.
    func withRegisters(of row: RecordRow.Values) -> Self {
        Self(vault: vault, chain: chain, kind: kind, status: row.status, hidden: row.hidden, erased: row.erased)
    }
}
