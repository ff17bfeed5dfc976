import CRecordBlocks
import Foundation
import GRDB
import GRDBSQLite
import TxLedgerCore

/// The directory of the records that blocks hold (`record_block_ids`, Specs/schema.md,
/// "Migration `v17: the directory in runs`"): each such record's id, block and slot, in id
/// order, kept in runs of entries, a row each, keyed by the first 8 bytes of the run's first
/// id. A load of 1M records writes about 5,600 rows where a row per record took 0.45–0.7 s at
/// the end of a new device's first sync, on one core. Lookups by id go through
/// `txledger_record_block_slot` (CRecordBlocks), which the virtual table `record_cold` uses too.
enum BlockDirectory {
    /// An entry: the id's 16 bytes, the block's number (4 bytes) and the slot (2 bytes), both
    /// little-endian.
    static let entryBytes = 22
    /// Entries a writer puts in a run (3,960 bytes: a run fills a 4 KiB page), unless the next
    /// entries share the last one's key, which a run then takes as well.
    static let runLength = 180

    /// The lookup's SQL, CRecordBlocks' own: the run that would hold an id, its `entries` and
    /// its `first`.
    private static let lookup = String(cString: txledger_record_block_slot_sql)

    /// The key of a run whose first id is `id`: its first 8 bytes, big-endian, the top bit
    /// flipped, so that keys as signed integers are in the ids' order.
    static func key(_ id: TransactionID) -> Int64 {
        Int64(bitPattern: id.leadingBits ^ (1 << 63))
    }

    /// Where the directory says the record `id` is; `nil` if it does not name it.
    /// - Throws: `LedgerError.unreadableDatabase` if the run that would hold it is damaged.
    static func slot(of id: TransactionID, in db: Database, path: String) throws -> RecordStore.BlockSlot? {
        // GRDB's cached statement: prepared once per connection, and finalized by GRDB.
        var statement: OpaquePointer? = try db.cachedStatement(sql: lookup).sqliteStatement
        var block: Int64 = 0
        var slot: Int32 = 0
        let code = id.withBytes { bytes in
            txledger_record_block_slot(db.sqliteConnection, &statement, bytes.baseAddress, &block, &slot)
        }
        switch code {
        case SQLITE_DONE: return nil
        case SQLITE_ROW:
            guard let block = UInt32(exactly: block), let slot = UInt16(exactly: slot) else { throw damaged(path) }
            return RecordStore.BlockSlot(id: id, block: block, slot: slot)
        case SQLITE_CORRUPT: throw damaged(path)
        default: throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage)
        }
    }

    /// Every entry, in id order.
    /// - Throws: `LedgerError.unreadableDatabase` if a run is not a whole number of entries, or
    ///   its entries are not in increasing id order with keys from its `first` to below the next
    ///   run's.
    static func entries(in db: Database, path: String) throws -> [RecordStore.BlockSlot] {
        var entries: [RecordStore.BlockSlot] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT first, entries FROM record_block_ids ORDER BY first")
        while let row = try rows.next() {
            let first: Int64 = row[0]
            let bytes = try run(row[1], path: path)
            // Every entry of the run before has a key below this run's `first`.
            guard entries.last.map({ key($0.id) < first }) ?? true else { throw damaged(path) }
            for offset in stride(from: 0, to: bytes.count, by: entryBytes) {
                let entry = decode(bytes[(bytes.startIndex + offset)...].prefix(entryBytes))
                guard key(entry.id) >= first, entries.last.map({ $0.id < entry.id }) ?? true else {
                    throw damaged(path)
                }
                entries.append(entry)
            }
        }
        return entries
    }

    /// Replaces the directory with the entries `produce` gives the function it is called with,
    /// in increasing id order, each id once.
    static func replace(
        in db: Database,
        _ produce: ((RecordStore.BlockSlot) throws -> Void) throws -> Void
    ) throws {
        try db.execute(sql: "DELETE FROM record_block_ids")
        var run: [UInt8] = []
        run.reserveCapacity(runLength * entryBytes)
        var first: Int64?
        var last: Int64?
        func flush() throws {
            guard let key = first else { return }
            try db.cachedStatement(sql: "INSERT INTO record_block_ids (first, entries) VALUES (?, ?)")
                .execute(arguments: [key, Data(run)])
            run.removeAll(keepingCapacity: true)
            first = nil
        }
        try produce { entry in
            let key = key(entry.id)
            if run.count >= runLength * entryBytes, key != last { try flush() }
            if first == nil { first = key }
            encode(entry, to: &run)
            last = key
        }
        try flush()
    }

    /// Removes the entry of `slot` (its id in its block), if the directory has it; a run left
    /// empty is deleted.
    /// - Throws: `LedgerError.unreadableDatabase` if its run is damaged.
    static func remove(_ slot: RecordStore.BlockSlot, in db: Database, path: String) throws {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: lookup), arguments: [key(slot.id)]) else { return }
        let first: Int64 = row[1]
        let bytes = try run(row[0], path: path)
        var kept = Data()
        kept.reserveCapacity(bytes.count)
        for offset in stride(from: 0, to: bytes.count, by: entryBytes) {
            let raw = bytes[(bytes.startIndex + offset)...].prefix(entryBytes)
            let entry = decode(raw)
            if entry.id == slot.id && entry.block == slot.block { continue }
            kept.append(raw)
        }
        guard kept.count < bytes.count else { return }
        if kept.isEmpty {
            try db.cachedStatement(sql: "DELETE FROM record_block_ids WHERE first = ?").execute(arguments: [first])
        } else {
            try db.cachedStatement(sql: "UPDATE record_block_ids SET entries = ? WHERE first = ?")
                .execute(arguments: [kept, first])
        }
    }

    /// The entries of a run as read, checked as the C lookup checks them: a blob of a whole,
    /// positive number of entries.
    /// - Throws: `LedgerError.unreadableDatabase` otherwise.
    private static func run(_ value: DatabaseValue, path: String) throws -> Data {
        guard case let .blob(bytes) = value.storage, !bytes.isEmpty, bytes.count % entryBytes == 0 else {
            throw damaged(path)
        }
        return bytes
    }

    private static func encode(_ entry: RecordStore.BlockSlot, to bytes: inout [UInt8]) {
        entry.id.withBytes { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: entry.block.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: entry.slot.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// The entry of `bytes`, `entryBytes` long.
    private static func decode(_ bytes: Data) -> RecordStore.BlockSlot {
        let start = bytes.startIndex
        // 16 bytes always make an id.
        let id = TransactionID(bytes: bytes[start..<(start + 16)])!
        let block = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[start + 16 + $1]) << (8 * $1) }
        let slot = UInt16(bytes[start + 20]) | UInt16(bytes[start + 21]) << 8
        return RecordStore.BlockSlot(id: id, block: block, slot: slot)
    }

    private static func damaged(_ path: String) -> LedgerError {
        LedgerError.unreadableDatabase(path: path, reason: "the directory of record blocks is damaged")
    }
}
