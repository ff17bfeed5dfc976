import Foundation
import GRDB
import TxLedgerCore

/// Cleared records held here (crdt.md, "Clearing a vault"; schema.md, `cleared_record` and
/// `clear_tombstone`): a cleared record keeps its whole state, invisible, for 30 days from
/// when this device first held it cleared, so that it can be restored; then its state is
/// purged and only the facts stamp it was cleared through stays, so that the same state coming
/// back from a device that never heard of the clear is not taken in again.
extension RecordStore {
    /// How long a cleared record stays restorable on this device: 30 days.
    package static let restorableMillis: Int64 = 30 * 24 * 60 * 60 * 1000

    /// Notes that the records `ids`, cleared here, are held cleared from `now` on; a record
    /// already noted keeps its first time.
    package func noteCleared(_ ids: some Sequence<TransactionID>, now: Int64) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO cleared_record (record, since_ms) SELECT num, ? FROM record WHERE id = ? AND erased = 1
                ON CONFLICT DO NOTHING
                """
        )
        for id in ids { try statement.execute(arguments: [now, Data(id.bytes)]) }
    }

    /// Notes every cleared record of `vault` not noted yet as held cleared from `now` on, in
    /// one statement (after a clear of the whole vault).
    package func noteCleared(vault: String, now: Int64) throws {
        try db.execute(
            sql: """
                INSERT INTO cleared_record (record, since_ms)
                SELECT num, ? FROM record WHERE vault = (SELECT num FROM vault WHERE id = ?) AND erased = 1
                ON CONFLICT DO NOTHING
                """,
            arguments: [now, vault]
        )
    }

    /// Calls `body` with every visible record of `vault`.
    package func forEachVisible(vault: String, _ body: (RecordState) throws -> Void) throws {
        try forEach(RecordQuery.stored(where: "vault.id = ? AND \(RecordRow.isVisible)", [vault]), body)
    }

    /// The cleared records of `vault` held here and not purged before `cutoff`, the latest
    /// recorded first.
    package func clearedRecords(vault: String, notBefore cutoff: Int64) throws -> [ClearedRecord] {
        let statement = try db.cachedStatement(
            sql: """
                SELECT \(RecordRow.selection), cleared_record.since_ms FROM \(RecordRow.source)
                JOIN cleared_record ON cleared_record.record = record.num
                WHERE vault.id = ? AND record.erased = 1 AND cleared_record.since_ms >= ?
                ORDER BY record.time DESC, record.id
                """
        )
        let watermark = try cachedWatermark(vault)
        let rows = try Row.fetchCursor(statement, arguments: [vault, cutoff])
        var found: [ClearedRecord] = []
        while let row = try rows.next() {
            let state = try StoredRow(statement).decode(tables: try frameTables(), path: path)
            let since: Int64 = row[4]
            // Cleared by its mark, else by an older version's watermark.
            guard let by = state.isCleared ? state.cleared?.stamp : watermark else { continue }
            found.append(
                ClearedRecord(
                    record: state.record,
                    clearedBy: by,
                    restorableUntil: Date(millis: since + Self.restorableMillis)
                )
            )
        }
        return found
    }

    /// The cleared state with this id, if this ledger holds one (in any vault).
    package func fetchCleared(id: TransactionID) throws -> RecordState? {
        try fetchStored(id: id).flatMap { try isErased($0) ? $0 : nil }
    }

    /// Purges every cleared record first held cleared before `cutoff`: its state is deleted and
    /// the facts stamp it was cleared through kept as its tombstone.
    /// - Returns: how many were purged.
    @discardableResult
    package func purgeCleared(before cutoff: Int64) throws -> Int {
        let statement = try db.cachedStatement(
            sql: """
                SELECT \(RecordRow.selection), record.vault FROM \(RecordRow.source)
                JOIN cleared_record ON cleared_record.record = record.num
                WHERE cleared_record.since_ms < ? AND record.erased = 1
                """
        )
        var expired: [(state: RecordState, vault: Int64)] = []
        let rows = try Row.fetchCursor(statement, arguments: [cutoff])
        while let row = try rows.next() {
            expired.append((try StoredRow(statement).decode(tables: try frameTables(), path: path), row[4]))
        }
        for (state, vault) in expired {
            // Cleared by its mark, or by an older version's watermark (which stays): its facts.
            let through = state.isCleared ? state.cleared?.through ?? state.facts.stamp : state.facts.stamp
            try db.cachedStatement(
                sql: """
                    INSERT INTO clear_tombstone (id, vault, through_time, through_replica) VALUES (?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET through_time = excluded.through_time,
                        through_replica = excluded.through_replica
                    """
            ).execute(arguments: [Data(state.id.bytes), vault, through.time, through.replica.rawValue])
            try remove(state.id)
        }
        // Local, as removing a record from this device is: no change number, nothing to sync.
        return expired.count
    }

    /// The tombstones of `vault` among `ids`: for each purged record, the facts stamp it was
    /// cleared through.
    package func tombstones(vault: String, ids: [TransactionID]) throws -> [TransactionID: Stamp] {
        guard !ids.isEmpty, try hasTombstones(vault: vault) else { return [:] }
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT id, through_time, through_replica FROM clear_tombstone WHERE id IN (\(marks))",
            arguments: StatementArguments(ids.map { Data($0.bytes) })
        )
        var found: [TransactionID: Stamp] = [:]
        for row in rows {
            guard let id = RecordRow.blob(row[0] as DatabaseValue).flatMap({ TransactionID(bytes: $0) }) else {
                continue
            }
            found[id] = try Stamp.received(
                time: row[1],
                replica: ReplicaID(rawValue: row[2]),
                field: "clear tombstone"
            )
        }
        return found
    }

    /// Whether `vault` has purged cleared records.
    private func hasTombstones(vault: String) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: "SELECT EXISTS (SELECT 1 FROM clear_tombstone WHERE vault = (SELECT num FROM vault WHERE id = ?))"
            ),
            arguments: [vault]
        ) ?? false
    }

    /// Deletes the tombstones of `vault` (`removeVault`).
    func removeTombstones(_ vault: String) throws {
        try db.execute(
            sql: "DELETE FROM clear_tombstone WHERE vault = (SELECT num FROM vault WHERE id = ?)",
            arguments: [vault]
        )
    }
}
