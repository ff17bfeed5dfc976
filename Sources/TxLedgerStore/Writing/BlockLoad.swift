import Foundation
import GRDB
import TxLedgerCore

/// The load of a full change set into a vault that holds nothing (Specs/schema.md, "Record
/// blocks"): its settled records that come in history order are written as blocks, the others
/// as rows; the directory of the blocks' ids is written once at the end, in id order.
package struct BlockLoad {
    private let vault: Int64
    private var block = RecordBlock()
    private var slots = BlockSlots()
    /// The time and id of the last row a block took: the next must come after it.
    private var last: (time: Int64, id: TransactionID)?
    /// Whether the ledger held no record at all when the load began; then the ids the load
    /// wrote as rows are the only ones with a stored row.
    private let intoEmptyLedger: Bool
    /// The ids the load wrote as rows, while they are at most `rowIDLimit`; `nil` after (a
    /// change set of records all in progress would otherwise hold every id here).
    private var rowIDs: Set<TransactionID>? = []
    private let rowIDLimit: Int

    /// How many ids of rows a load remembers (about 3 MB): past them, each batch's ids are
    /// looked up as in any merge.
    package static let rowIDLimit = 65_536

    /// A load into vault number `vault`, which holds nothing (`RecordStore.isEmpty(vault:)`).
    /// Until `restoreCache`, the connection's page cache is cut to `loadCacheKiB`: a load writes
    /// each page once, in order, so the 64 MiB a merge's random index pages need would only
    /// hold pages already written (it set the peak of a 1M load).
    package init(vault: Int64, store: RecordStore, rowIDLimit: Int = Self.rowIDLimit) throws {
        self.vault = vault
        self.rowIDLimit = rowIDLimit
        intoEmptyLedger = try store.holdsNoRecord()
        try store.db.execute(sql: "PRAGMA cache_size = -\(Self.loadCacheKiB)")
    }

    /// Of `ids`, those that may have a stored row, for a merge to read: into a ledger that held
    /// no record, only those this load wrote as rows (a change set may name a record twice),
    /// while it remembers them all (`rowIDLimit`); else all of them (another vault's rows are
    /// checked as in any merge).
    package func mayBeStored(_ ids: [TransactionID]) -> [TransactionID] {
        guard intoEmptyLedger, let rowIDs else { return ids }
        return ids.filter(rowIDs.contains)
    }

    static let loadCacheKiB = 16384

    /// Gives the connection its page cache back, whether the load finished or failed.
    package static func restoreCache(_ store: RecordStore) {
        // Setting a pragma to a number does not fail.
        try? store.db.execute(sql: "PRAGMA cache_size = -\(LedgerDatabase.cacheKiB)")
    }

    /// Writes `rows` (new rows of the vault, as a merge's worker made them), a batch of the
    /// change set in the order it came: each settled one that comes after the rows blocks took
    /// goes to a block, the others are saved as rows.
    package mutating func write(_ rows: [RecordRow.Values], to store: RecordStore) throws {
        // Sorted by their keys alone: comparing the rows would copy each one.
        let keys = rows.map { (time: $0.time, id: $0.id) }
        for index in keys.indices.sorted(by: { keys[$0] < keys[$1] }) {
            let row = rows[index]
            guard row.vault == vault, RecordBlock.holds(row),
                last.map({ ($0.time, $0.id) < (row.time, row.id) }) ?? true
            else {
                try store.save(row)
                remember(row.id)
                continue
            }
            if block.isFull { try flush(store) }
            block.append(row)
            last = (row.time, row.id)
        }
    }

    private mutating func remember(_ id: TransactionID) {
        guard rowIDs != nil else { return }
        rowIDs!.insert(id)
        if rowIDs!.count > rowIDLimit { rowIDs = nil }
    }

    private mutating func flush(_ store: RecordStore) throws {
        slots.append(contentsOf: try store.write(block, vault: vault))
        block = RecordBlock()
    }

    /// Writes the last block and the directory. A record the change set named twice (in two
    /// blocks, or in a block and a row) is then joined into one row, and its copies in blocks
    /// superseded.
    package mutating func finish(_ store: RecordStore) throws {
        try flush(store)
        // Taken out, so that the buckets are sorted in place, not copied.
        let taken = slots
        slots = BlockSlots()
        let (repeated, rowsAndBlocks) = try store.writeDirectory(consume taken, vault: vault)
        let twice = Set(repeated.keys).union(rowsAndBlocks)
        guard !twice.isEmpty else { return }
        let copies = try store.copies(of: Array(twice), vault: vault)
        for slot in repeated.values.joined() { try store.supersede(slot) }
        for id in rowsAndBlocks { try store.dropBlockCopy(id) }
        for state in copies.values { try store.save(state) }
    }
}
