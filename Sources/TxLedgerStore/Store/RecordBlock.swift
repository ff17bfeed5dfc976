import CRecordBlocks
import GRDB
import TxLedgerCore

/// A row of `record_block` (Specs/schema.md, "Record blocks"): up to `maxRows` settled records
/// of one vault, in history order, as one blob that the virtual table `record_cold`
/// (`CRecordBlocks`) reads back as rows with `record`'s columns.
///
/// The blob: a format byte (1), a zero byte, the count (u16), then `count + 1` offsets (u32)
/// of the rows from the blob's start, the last one its end; each row is the id (16 bytes), the
/// time and the chain number (i64 each), the kind, status and hidden codes (a byte each), then
/// the stored frame. Every integer is little-endian.
struct RecordBlock {
    /// Rows a block holds at most (`record_block.count`).
    static let maxRows = 1024
    /// Rows this block takes (fewer in tests, to make many blocks of few records).
    let capacity: Int
    static let format: UInt8 = 1
    /// The bytes of a row before its frame.
    static let fixedBytes = 16 + 8 + 8 + 3

    private(set) var rows: [RecordRow.Values] = []

    init(capacity: Int = maxRows) {
        precondition((1...Self.maxRows).contains(capacity))
        self.capacity = capacity
    }

    var isFull: Bool { rows.count == capacity }

    /// Whether a row may be kept in a block: a settled record (confirmed or failed, proven),
    /// neither erased by a clear nor disputed, replacing no other, in the vault the block is
    /// for. Everything else is a row of `record`, which status checks and local writes use.
    static func holds(_ row: RecordRow.Values) -> Bool {
        (row.status == 2 || row.status == 3) && !row.erased && !row.disputed && row.replaced == nil
    }

    /// Adds `row`, which comes after the rows already added in history order.
    mutating func append(_ row: RecordRow.Values) {
        precondition(!isFull && Self.holds(row), "a block takes settled rows up to its capacity")
        rows.append(row)
    }

    /// The blob of the rows added.
    var encoded: [UInt8] {
        let header = 4 + 4 * (rows.count + 1)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(header + rows.reduce(0) { $0 + Self.fixedBytes + $1.state.count })
        bytes.append(Self.format)
        bytes.append(0)
        Self.append(UInt16(rows.count), to: &bytes)
        var offset = header
        for row in rows {
            Self.append(UInt32(offset), to: &bytes)
            offset += Self.fixedBytes + row.state.count
        }
        Self.append(UInt32(offset), to: &bytes)
        for row in rows {
            row.id.withBytes { bytes.append(contentsOf: $0) }
            Self.append(UInt64(bitPattern: row.time), to: &bytes)
            Self.append(UInt64(bitPattern: row.chain), to: &bytes)
            bytes.append(UInt8(row.kind))
            bytes.append(UInt8(row.status))
            bytes.append(row.hidden ? 1 : 0)
            bytes.append(contentsOf: row.state)
        }
        return bytes
    }

    /// Where the offset of row `slot` is in a block's blob.
    static func offsetPosition(of slot: Int) -> Int { 4 + 4 * slot }

    /// The offset the four bytes `bytes` hold.
    static func offset(in bytes: [UInt8]) -> Int {
        bytes.prefix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    /// The columns `record_count` counts a row of a block of vault number `vault` under, from
    /// the row's first `fixedBytes`; `nil` if a code is out of range.
    static func countedColumns(ofFixedPart fixed: [UInt8], vault: Int64) -> RecordStore.CountedColumns? {
        let chain = fixed[24..<32].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let (kind, status, hidden) = (fixed[32], fixed[33], fixed[34])
        guard kind <= 2, status == 2 || status == 3, hidden <= 1 else { return nil }
        return RecordStore.CountedColumns(
            vault: vault,
            chain: Int64(bitPattern: chain),
            kind: Int64(kind),
            status: Int64(status),
            hidden: hidden == 1,
            erased: false
        )
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Makes `record_cold` readable on `db`'s connection.
    static func register(on db: Database) throws {
        guard let connection = db.sqliteConnection else { return }
        let code = txledger_register_record_cold(connection)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "record_cold cannot be registered")
        }
    }
}
