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

    /// Writes the directory entries of `slots` in id order; returns the ids named more than
    /// once, whose slots are all left out (the caller writes each such record as a row, and
    /// supersedes its slots: `supersede`).
    func writeDirectory(_ slots: consuming BlockSlots) throws -> [TransactionID: [BlockSlot]] {
        var repeated: [TransactionID: [BlockSlot]] = [:]
        var entries: [BlockSlot] = []
        entries.reserveCapacity(Self.directoryEntriesPerInsert)
        // Every statement but the last inserts as many entries: its SQL is made once.
        let full = try RecordWriteStatement(db, sql: Self.directoryInsert(Self.directoryEntriesPerInsert))
        func insert() throws {
            let statement =
                entries.count == Self.directoryEntriesPerInsert
                ? full : try RecordWriteStatement(db, sql: Self.directoryInsert(entries.count))
            try statement.execute(directory: entries[...])
            entries.removeAll(keepingCapacity: true)
        }
        // An id's slots are all in one bucket.
        for sorted in slots.sortedBuckets() {
            var index = sorted.startIndex
            while index < sorted.endIndex {
                var end = index + 1
                while end < sorted.endIndex && sorted[end].id == sorted[index].id { end += 1 }
                if end - index > 1 {
                    repeated[sorted[index].id] = Array(sorted[index..<end])
                } else {
                    entries.append(sorted[index])
                    if entries.count == Self.directoryEntriesPerInsert { try insert() }
                }
                index = end
            }
        }
        if !entries.isEmpty { try insert() }
        // The entries went through the C API, which GRDB does not see.
        try db.notifyChanges(in: Table("record_cold_id"))
        return repeated
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
        try db.cachedStatement(sql: "DELETE FROM record_cold_id WHERE id = ? AND block = ?")
            .execute(arguments: [Data(slot.id.bytes), slot.block])
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
        guard let slot = try directorySlot(id) else { return }
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
        guard let slot = try directorySlot(id) else { return }
        try supersede(slot)
    }

    private func directorySlot(_ id: TransactionID) throws -> BlockSlot? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT block, slot FROM record_cold_id WHERE id = ?"),
                arguments: [Data(id.bytes)]
            ), let block = UInt32.fromDatabaseValue(row[0]), let slot = UInt16.fromDatabaseValue(row[1])
        else { return nil }
        return BlockSlot(id: id, block: block, slot: slot)
    }

    /// The ids of vault number `vault` that are both a row and in a block's directory.
    func idsInRowsAndBlocks(vault: Int64) throws -> [TransactionID] {
        try Data.fetchAll(
            db,
            sql: "SELECT id FROM record WHERE vault = ? AND id IN (SELECT id FROM record_cold_id)",
            arguments: [vault]
        ).compactMap { TransactionID(bytes: $0) }
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

    /// The directory entries `writeDirectory` inserts in one statement (three parameters each,
    /// within SQLite's default limit of 32,766).
    static let directoryEntriesPerInsert = 256

    /// The insert of `count` directory entries.
    private static func directoryInsert(_ count: Int) -> String {
        "INSERT INTO record_cold_id (id, block, slot) VALUES "
            + Array(repeating: "(?, ?, ?)", count: count).joined(separator: ", ")
    }

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
