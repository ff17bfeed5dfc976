import Foundation
import GRDB

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStore

/// Records kept in blocks (`record_block`), made from a ledger's rows: what the load of a full
/// change set makes, for tests of everything that reads or writes them.
package enum BlockFixture {
    package static let columns = RecordRow.columns.joined(separator: ", ")
    /// The change number of the blocks made.
    package static let changeSeq: Int64 = 7

    /// A row's values by column name (`Row` is not `Sendable`).
    package typealias Moved = [String: DatabaseValue]

    /// Moves the settled records of `ledger` (`RecordBlock.holds`) from their rows into blocks
    /// of `capacity`, with the change number `changeSeq`; returns the moved rows as they were
    /// (`columns`).
    package static func moveSettledRecords(of ledger: Ledger, capacity: Int = 3) async throws -> [Moved] {
        try await ledger.database.pool.write { db in
            let store = RecordStore(db, path: "", changeSeq: changeSeq)
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.columns) FROM record
                    WHERE status IN (2, 3) AND erased = 0 AND disputed = 0 AND replaced IS NULL
                    ORDER BY vault, time, id
                    """
            )
            var slots = BlockSlots()
            var block = RecordBlock(capacity: capacity)
            var vault: Int64?
            for row in rows {
                let values = Self.values(row)
                if let open = vault, open != values.vault || block.isFull {
                    slots.append(contentsOf: try store.write(block, vault: open))
                    block = RecordBlock(capacity: capacity)
                }
                vault = values.vault
                block.append(values)
                try store.remove(values.id)
            }
            if let vault { slots.append(contentsOf: try store.write(block, vault: vault)) }
            // The rows were removed: no record is in a row and a block.
            let written = try store.writeDirectory(slots, vault: vault ?? 0)
            guard written.repeated.isEmpty, written.inRows.isEmpty else { throw FixtureError.repeatedID }
            try store.writeCounts()
            return rows.map { row in
                Moved(uniqueKeysWithValues: RecordRow.columns.map { ($0, row[$0] as DatabaseValue) })
            }
        }
    }

    enum FixtureError: Error { case repeatedID }

    /// How many entries the directory of record blocks holds (`BlockDirectory`).
    package static func directoryEntries(_ db: Database) throws -> Int {
        try Int.fetchOne(
            db,
            sql: "SELECT COALESCE(SUM(length(entries)), 0) / \(BlockDirectory.entryBytes) FROM record_block_ids"
        ) ?? -1
    }

    static func values(_ row: Row) -> RecordRow.Values {
        RecordRow.Values(
            id: TransactionID(bytes: Array(row["id"] as Data))!,
            vault: row["vault"],
            time: row["time"],
            kind: row["kind"],
            chain: row["chain"],
            replaced: nil,
            status: row["status"],
            hidden: row["hidden"],
            erased: row["erased"],
            disputed: row["disputed"],
            changeSeq: row["change_seq"],
            state: Array(row["state"] as Data)
        )
    }

}
