import Foundation
import GRDB
import TxLedgerCore

/// Records kept in blocks (`record_block`, Specs/schema.md, "Record blocks"): written once by
/// the load of a full change set, read through `record_cold`, and moved back to a row of
/// `record` ("thawed") before anything writes them.
extension RecordStore {
    /// Where a record of a block is: the block's number and the record's slot in it (24 bytes:
    /// a load of a million records holds a million of them).
    package struct BlockSlot: Sendable {
        let id: TransactionID
        let block: UInt32
        let slot: UInt16
    }

    /// Writes `block`'s rows as one row of `record_block` for vault number `vault`; returns
    /// where each of its records is, for the directory (`writeDirectory`).
    func write(_ block: RecordBlock, vault: Int64) throws -> [BlockSlot] {
        let rows = block.rows
        guard let first = rows.first, let last = rows.last else { return [] }
        try db.cachedStatement(
            sql: """
                INSERT INTO record_block (vault, oldest, newest, count, change_seq, rows)
                VALUES (?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [vault, first.time, last.time, rows.count, changeSeq, Data(block.encoded)])
        guard let number = UInt32(exactly: db.lastInsertedRowID) else {
            throw LedgerError.unreadableDatabase(path: path, reason: "it holds more record blocks than a ledger can")
        }
        for row in rows { count(CountedColumns(row), 1) }
        blockVaults?.insert(vault)
        markChanged()
        return rows.enumerated().map { BlockSlot(id: $0.element.id, block: number, slot: UInt16($0.offset)) }
    }

    /// Writes the directory (`BlockDirectory`) with the entries of `slots`, the blocks a load
    /// of vault number `vault` wrote, besides the entries it holds. Returns the ids `slots` names
    /// more than once, whose slots are all left out (the caller writes each such record as a
    /// row, and supersedes its slots: `supersede`), and the ids of the others that the vault
    /// also holds as rows (the load wrote them as rows too; the caller joins each into one row).
    /// - Throws: `LedgerError.unreadableDatabase` if the directory is damaged, or already names
    ///   a record of `slots`.
    func writeDirectory(
        _ slots: consuming BlockSlots,
        vault: Int64
    ) throws -> (repeated: [TransactionID: [BlockSlot]], inRows: [TransactionID]) {
        // In id order, walked beside the entries (a set's lookup for each of a million entries
        // was a quarter of the directory's time).
        let rows = try Data.fetchAll(db, sql: "SELECT id FROM record WHERE vault = ?", arguments: [vault])
            .compactMap { TransactionID(bytes: $0) }.sorted()
        var nextRow = rows.startIndex
        // Another vault's blocks, if any: merged with the new entries, in id order.
        let held = try BlockDirectory.entries(in: db, path: path)
        var next = held.startIndex
        var repeated: [TransactionID: [BlockSlot]] = [:]
        var inRows: [TransactionID] = []
        let buckets = slots.sortedBuckets()
        try BlockDirectory.replace(in: db) { add in
            try BlockSlots.forEachID(in: buckets) { named in
                let entry = named[named.startIndex]
                guard named.count == 1 else {
                    repeated[entry.id] = Array(named)
                    return
                }
                while next < held.endIndex && held[next].id < entry.id {
                    try add(held[next])
                    next += 1
                }
                if next < held.endIndex && held[next].id == entry.id {
                    throw LedgerError.unreadableDatabase(
                        path: path,
                        reason: "the directory of record blocks names record \(entry.id) in two blocks"
                    )
                }
                while nextRow < rows.endIndex && rows[nextRow] < entry.id { nextRow += 1 }
                if nextRow < rows.endIndex && rows[nextRow] == entry.id { inRows.append(entry.id) }
                try add(entry)
            }
            for entry in held[next...] { try add(entry) }
        }
        return (repeated, inRows)
    }

    /// Marks `slot` as no longer holding its record (the record is a row now, or was named
    /// twice), and drops its directory entry; a block all of whose slots are superseded is
    /// deleted. The record is no longer counted, unless `uncounting` is false (it was moved to
    /// a row with the same columns: `thaw`).
    func supersede(_ slot: BlockSlot, uncounting: Bool = true) throws {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT b.count, s.bits, b.vault FROM record_block b
                        LEFT JOIN record_block_superseded s ON s.block = b.num WHERE b.num = ?
                        """
                ),
                arguments: [slot.block]
            ), let count = Int.fromDatabaseValue(row[0]), Int(slot.slot) < count,
            let vault = Int64.fromDatabaseValue(row[2])
        else {
            throw LedgerError.unreadableDatabase(path: path, reason: "record block \(slot.block) is damaged")
        }
        let stored: DatabaseValue = row[1]
        var bits = stored.isNull ? Data(count: (count + 7) / 8) : RecordRow.blob(stored) ?? Data()
        guard bits.count == (count + 7) / 8 else {
            throw LedgerError.unreadableDatabase(path: path, reason: "record block \(slot.block) is damaged")
        }
        let mask = UInt8(1) << (Int(slot.slot) % 8)
        guard bits[Int(slot.slot) / 8] & mask == 0 else {
            throw LedgerError.unreadableDatabase(path: path, reason: "record block \(slot.block) is damaged")
        }
        bits[Int(slot.slot) / 8] |= mask
        if uncounting {
            guard let counted = countedColumns(block: slot.block, slot: slot.slot, vault: vault) else {
                throw LedgerError.unreadableDatabase(path: path, reason: "record block \(slot.block) is damaged")
            }
            self.count(counted, -1)
        }
        try BlockDirectory.remove(slot, in: db, path: path)
        if (0..<count).allSatisfy({ bits[$0 / 8] & (UInt8(1) << ($0 % 8)) != 0 }) {
            for sql in [
                "DELETE FROM record_block WHERE num = ?", "DELETE FROM record_block_superseded WHERE block = ?",
            ] {
                try db.cachedStatement(sql: sql).execute(arguments: [slot.block])
            }
        } else {
            // A table of its own: an update of the block's row would rewrite its rows.
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO record_block_superseded (block, bits) VALUES (?, ?)")
                .execute(arguments: [slot.block, bits])
        }
    }

    /// Moves the record `id` from its block to a row of `record`, unchanged (its change number
    /// kept), if a block holds it: what every write of a record does first.
    func thaw(_ id: TransactionID) throws {
        guard let slot = try BlockDirectory.slot(of: id, in: db, path: path) else { return }
        let columns = RecordRow.columns.joined(separator: ", ")
        try db.cachedStatement(
            sql: "INSERT INTO record (\(columns)) SELECT \(columns) FROM record_cold WHERE id = ?"
        ).execute(arguments: [Data(id.bytes)])
        guard db.changesCount == 1 else {
            throw LedgerError.unreadableDatabase(path: path, reason: "record block \(slot.block) does not hold \(id)")
        }
        try supersede(slot, uncounting: false)
        try db.notifyChanges(in: Table("record"))
    }

    /// Drops the copy a block holds of `id` (through the directory), leaving its row.
    func dropBlockCopy(_ id: TransactionID) throws {
        guard let slot = try BlockDirectory.slot(of: id, in: db, path: path) else { return }
        try supersede(slot)
    }

    /// Every copy of the records `ids` in vault number `vault`, rows and blocks, the directory
    /// aside (a walk through the vault's blocks), joined per record.
    func copies(of ids: [TransactionID], vault: Int64) throws -> [TransactionID: RecordState] {
        var joined: [TransactionID: RecordState] = [:]
        // A few hundred ids a query: SQLite caps a statement's parameters (a hostile change set
        // may name any number of records twice).
        for start in stride(from: 0, to: ids.count, by: Self.copiesPerQuery) {
            let chunk = ids[start..<min(start + Self.copiesPerQuery, ids.count)]
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            // The unary `+` keeps the blocks' reader off the directory, which does not name them all.
            try forEach(
                RecordQuery.stored(
                    where: "record.vault = ? AND +record.id IN (\(marks))",
                    [vault] + StatementArguments(chunk.map { Data($0.bytes) })
                )
            ) { state in
                joined[state.id] = joined[state.id].map { $0.joined(with: state) } ?? state
            }
        }
        return joined
    }

    /// The ids `copies(of:vault:)` asks for in one query.
    static let copiesPerQuery = 500

    /// Whether vault number `vault` has records in blocks (read once per transaction).
    func holdsBlocks(_ vault: Int64) throws -> Bool {
        try vaultsWithBlocks().contains(vault)
    }

    /// Whether any vault has records in blocks (read once per transaction; a vault whose blocks
    /// this transaction deleted may still count, which only costs a read of no block).
    func holdsAnyBlock() throws -> Bool {
        try !vaultsWithBlocks().isEmpty
    }

    private func vaultsWithBlocks() throws -> Set<Int64> {
        if let blockVaults { return blockVaults }
        // A migration before v14 writes rows of a file that has no blocks yet.
        let vaults =
            try db.tableExists("record_block")
            ? Set(try Int64.fetchAll(db.cachedStatement(sql: "SELECT DISTINCT vault FROM record_block"))) : []
        blockVaults = vaults
        return vaults
    }

    /// Whether the ledger holds no record of any vault, as a row or in a block.
    func holdsNoRecord() throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: "SELECT NOT EXISTS (SELECT 1 FROM record) AND NOT EXISTS (SELECT 1 FROM record_block)"
        ) ?? false
    }

    /// Whether vault number `vault` holds nothing, neither rows nor blocks: a full change set
    /// may then be loaded into blocks.
    package func isEmpty(vault: Int64) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT NOT EXISTS (SELECT 1 FROM record WHERE vault = ?1)
                    AND NOT EXISTS (SELECT 1 FROM record_block WHERE vault = ?1)
                """,
            arguments: [vault]
        ) ?? false
    }
}
