import GRDB

/// The single `ledger_meta` row: this replica's id, its clock and its change sequence number.
///
/// The clock is loaded and saved inside each write transaction rather than kept in memory, so
/// the stamps of every process writing the same file are one monotonic sequence.
enum LedgerMeta {
    static func replicaID(_ db: Database) throws -> ReplicaID {
        try loadClock(db, maxForwardDrift: 0).replica
    }

    static func loadClock(_ db: Database, maxForwardDrift: Int64) throws -> HybridClock {
        let row = try Row.fetchOne(db, sql: "SELECT replica_id, clock FROM ledger_meta WHERE id = 1")
        guard let row, let raw: Int64 = row["replica_id"], raw >= 0 else {
            throw LedgerError.unreadableDatabase(path: db.configuration.label ?? "ledger", reason: "its replica identity is missing")
        }
        return HybridClock(replica: ReplicaID(rawValue: raw), last: row["clock"], maxForwardDrift: maxForwardDrift)
    }

    static func saveClock(_ clock: HybridClock, _ db: Database) throws {
        try db.execute(sql: "UPDATE ledger_meta SET clock = ? WHERE id = 1", arguments: [clock.last])
    }

    /// The change sequence number of the last write transaction that changed anything.
    static func seq(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT seq FROM ledger_meta WHERE id = 1") ?? 0
    }

    static func saveSeq(_ seq: Int64, _ db: Database) throws {
        try db.execute(sql: "UPDATE ledger_meta SET seq = ? WHERE id = 1", arguments: [seq])
    }
}
