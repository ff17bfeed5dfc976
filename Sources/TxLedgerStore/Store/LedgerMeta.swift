import GRDB
import TxLedgerCore

/// The single `ledger_meta` row: this replica's id, its clock, its change sequence number and
/// the epoch its latest change belongs to.
///
/// The clock is loaded and saved inside each write transaction rather than kept in memory, so
/// the stamps of every process writing the same file are one monotonic sequence.
package enum LedgerMeta {
    package static func replicaID(_ db: Database) throws -> ReplicaID {
        try load(db, maxForwardDrift: 0).clock.replica
    }

    /// The clock, the change sequence number and the current epoch, read at the start of a
    /// write transaction.
    static func load(_ db: Database, maxForwardDrift: Int64) throws -> (clock: HybridClock, seq: Int64, epoch: EpochID?)
    {
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT replica_id, clock, seq, epoch FROM ledger_meta WHERE id = 1")
        )
        guard let row, let raw: Int64 = row[0], raw >= 0, let last: Int64 = row[1] else {
            throw LedgerError.unreadableDatabase(
                path: db.configuration.label ?? "ledger",
                reason: "its replica identity is missing"
            )
        }
        let epoch: Int64? = row[3]
        return (
            HybridClock(replica: ReplicaID(rawValue: raw), last: last, maxForwardDrift: maxForwardDrift), row[2] ?? 0,
            epoch.flatMap { $0 > 0 ? EpochID(rawValue: $0) : nil }
        )
    }

    /// Starts a new epoch at `firstSeq` and makes it the file's current one.
    static func startEpoch(_ epoch: EpochID, at firstSeq: Int64, _ db: Database) throws {
        try db.execute(sql: "INSERT INTO epoch (id, first_seq) VALUES (?, ?)", arguments: [epoch.rawValue, firstSeq])
        try db.execute(sql: "UPDATE ledger_meta SET epoch = ? WHERE id = 1", arguments: [epoch.rawValue])
    }

    /// Gives this file a new replica id (crdt.md, "Restored and cloned files"): no peer holds
    /// anything of the new identity yet.
    package static func rotateReplicaID(_ db: Database) throws -> ReplicaID {
        let fresh = ReplicaID.random()
        try db.execute(
            sql: "UPDATE ledger_meta SET replica_id = ?, epoch = NULL WHERE id = 1",
            arguments: [fresh.rawValue]
        )
        try db.execute(sql: "UPDATE peer SET acked_seq = 0")
        return fresh
    }

    /// The change sequence number of the last write transaction that changed anything.
    package static func seq(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM ledger_meta WHERE id = 1")) ?? 0
    }

    /// Saves, at the end of a write transaction, the clock if it issued stamps and the change
    /// sequence number if the transaction changed anything.
    package static func save(clock: HybridClock?, seq: Int64?, _ db: Database) throws {
        guard clock != nil || seq != nil else { return }
        try db.cachedStatement(
            sql: "UPDATE ledger_meta SET clock = COALESCE(?, clock), seq = COALESCE(?, seq) WHERE id = 1"
        )
        .execute(arguments: [clock?.last, seq])
    }
}
