import Foundation
import GRDB
import TxLedgerCore

/// The `vault`, `peer` and `epoch` tables: clear watermarks, what this replica and its peers
/// know of each other's changes, per vault, and this replica's epochs (crdt.md, "Deltas").
extension RecordStore {
    /// Every vault this ledger holds rows for.
    package func vaults() throws -> [String] {
        try String.fetchAll(db, sql: "SELECT id FROM vault ORDER BY id")
    }

    /// The vault's number in this file (the `vault` table), added if it is new.
    @discardableResult
    package func ensureVault(_ vault: String) throws -> Int64 {
        if let number = vaultNumbers[vault] { return number }
        try db.cachedStatement(sql: "INSERT INTO vault (id, change_seq) VALUES (?, ?) ON CONFLICT DO NOTHING")
            .execute(arguments: [vault, changeSeq])
        let number = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT num FROM vault WHERE id = ?"),
            arguments: [vault]
        )!
        vaultNumbers[vault] = number
        return number
    }

    /// The vault's clear watermark and the change sequence number that last changed it.
    package func watermark(_ vault: String) throws -> (stamp: Stamp?, changeSeq: Int64) {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT cleared_time, cleared_replica, change_seq FROM vault WHERE id = ?"),
                arguments: [vault]
            )
        else {
            return (nil, 0)
        }
        var stamp: Stamp?
        if let time: Int64 = row["cleared_time"], let replica: Int64 = row["cleared_replica"] {
            // Checked like every stamp read (RecordRow): the file may be another replica's.
            stamp = try Stamp.received(time: time, replica: ReplicaID(rawValue: replica), field: "clear watermark")
        }
        return (stamp, row["change_seq"])
    }

    /// The vault's clear watermark, read once per transaction.
    package func cachedWatermark(_ vault: String) throws -> Stamp? {
        if let known = watermarks[vault] { return known }
        let stamp = try watermark(vault).stamp
        watermarks[vault] = stamp
        return stamp
    }

    /// Raises the vault's watermark to `stamp` (an older version's clear, which erases by stamp)
    /// and applies it to the stored rows: every register stamped at or before it is erased
    /// (`RecordState.filtered`); rows with nothing left are deleted, rows whose facts are erased
    /// but a later register survives stay, cleared (restorable from `now` on).
    /// - Returns: how many records stopped being visible.
    package func clear(_ vault: String, through stamp: Stamp, now: Int64) throws -> Int {
        let previous = try watermark(vault).stamp
        guard previous.map({ stamp > $0 }) ?? true else { return 0 }
        let number = try ensureVault(vault)
        try db.execute(
            sql: "UPDATE vault SET cleared_time = ?, cleared_replica = ?, change_seq = ? WHERE id = ?",
            arguments: [stamp.time, stamp.replica.rawValue, changeSeq, vault]
        )
        watermarks[vault] = stamp
        markChanged()
        var affected: [RecordState] = []
        try forEach(RecordQuery.stored(where: "record.vault = ?", [number])) { state in
            if state.stamps.contains(where: { $0 <= stamp }) { affected.append(state) }
        }
        var cleared = 0
        for state in affected {
            if state.isVisible(clearedThrough: previous) && !state.isVisible(clearedThrough: stamp) { cleared += 1 }
            if let filtered = state.filtered(clearedThrough: stamp) {
                try save(filtered)
            } else {
                try remove(state.id)
            }
        }
        try noteCleared(vault: vault, now: now)
        return cleared
    }

    /// Deletes everything this file holds of `vault`: its records, its row, its peers and its
    /// sync folders' files.
    package func removeVault(_ vault: String) throws {
        let number = "(SELECT num FROM vault WHERE id = ?)"
        let blocks = Set(
            try Int64.fetchAll(db, sql: "SELECT num FROM record_block WHERE vault = \(number)", arguments: [vault])
        )
        if !blocks.isEmpty {
            // The directory without the vault's entries (rewritten whole: removing a vault is rare).
            let kept = try BlockDirectory.entries(in: db, path: path).filter { !blocks.contains(Int64($0.block)) }
            try BlockDirectory.replace(in: db) { add in for entry in kept { try add(entry) } }
        }
        for sql in [
            "DELETE FROM record WHERE vault = \(number)",
            "DELETE FROM record_block_superseded WHERE block IN (SELECT num FROM record_block WHERE vault = \(number))",
            "DELETE FROM record_block WHERE vault = \(number)",
        ] {
            try db.execute(sql: sql, arguments: [vault])
        }
        if let number = try Int64.fetchOne(db, sql: "SELECT num FROM vault WHERE id = ?", arguments: [vault]) {
            try dropCounts(vault: number)
        }
        for table in ["peer", "folder_file"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE vault_id = ?", arguments: [vault])
        }
        try removeDevices(vault)
        try removeTombstones(vault)
        try db.execute(sql: "DELETE FROM vault WHERE id = ?", arguments: [vault])
        vaultNumbers[vault] = nil
    }

    // MARK: - Knowledge of peers

    /// For each replica: up to which of its change sequence numbers this replica holds its
    /// changes of `vault`, and the epoch of that change (`nil` if learned without epochs).
    package func held(_ vault: String) throws -> [ReplicaID: (seq: Int64, epoch: EpochID?)] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT replica_id, have_seq, have_epoch FROM peer WHERE vault_id = ? AND have_seq > 0
                ORDER BY \(Self.peerKeepOrder) LIMIT ?
                """,
            arguments: [vault, PeerKnowledge.maxPerVault]
        )
        return Dictionary(
            uniqueKeysWithValues: rows.map { row in
                let epoch: Int64? = row["have_epoch"]
                return (
                    ReplicaID(rawValue: row["replica_id"]),
                    (row["have_seq"], epoch.flatMap { $0 > 0 ? EpochID(rawValue: $0) : nil })
                )
            }
        )
    }

    /// What this replica knows of `peer` for `vault`, or `nil` if it never heard of it.
    package func peer(_ vault: String, _ peer: ReplicaID) throws -> PeerKnowledge? {
        try Row.fetchOne(
            db,
            sql: "SELECT * FROM peer WHERE vault_id = ? AND replica_id = ?",
            arguments: [vault, peer.rawValue]
        )
        .map(PeerKnowledge.init(row:))
    }

    /// Every peer this replica knows of for `vault`, by replica id.
    package func peers(_ vault: String) throws -> [PeerKnowledge] {
        try Row.fetchAll(db, sql: "SELECT * FROM peer WHERE vault_id = ? ORDER BY replica_id", arguments: [vault]).map(
            PeerKnowledge.init(row:)
        )
    }

    package func save(_ knowledge: PeerKnowledge, vault: String) throws {
        try db.execute(
            sql: """
                INSERT INTO peer (vault_id, replica_id, have_seq, have_epoch, acked_seq, heard_at_ms,
                  wait_seq, wait_since_ms, wait_their_seq, wait_advances) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (vault_id, replica_id) DO UPDATE SET have_seq = excluded.have_seq, have_epoch = excluded.have_epoch,
                  acked_seq = excluded.acked_seq, heard_at_ms = excluded.heard_at_ms, wait_seq = excluded.wait_seq,
                  wait_since_ms = excluded.wait_since_ms, wait_their_seq = excluded.wait_their_seq,
                  wait_advances = excluded.wait_advances
                """,
            arguments: [
                vault, knowledge.replica.rawValue, knowledge.haveSeq, knowledge.haveEpoch?.rawValue,
                knowledge.ackedSeq, knowledge.heardAtMillis, knowledge.waitingFor?.seq,
                knowledge.waitingFor?.sinceMillis, knowledge.waitingFor?.theirSeq, knowledge.waitingFor?.advances,
            ]
        )
    }

    /// Deletes what this replica knows of `peer`, in `vault` or in every vault.
    /// - Returns: in how many vaults it was known.
    package func forget(_ peer: ReplicaID, vault: String?) throws -> Int {
        try db.execute(
            sql: "DELETE FROM peer WHERE replica_id = ? AND (? IS NULL OR vault_id = ?)",
            arguments: [peer.rawValue, vault, vault]
        )
        return db.changesCount
    }

    /// The order in which peers are kept when there are too many (crdt.md, "Limits of
    /// knowledge"): those heard from directly before those only relayed, the most recently
    /// heard first, then those of which this replica holds more.
    private static let peerKeepOrder = "heard_at_ms IS NULL, heard_at_ms DESC, have_seq DESC, replica_id"

    /// The vaults whose peers break the limits of knowledge: more than `maxPerVault`, or one
    /// not heard from directly since `silentBefore`.
    package func vaultsWithPeersToDrop(silentBefore: Int64) throws -> [String] {
        try String.fetchAll(
            db,
            sql: "SELECT vault_id FROM peer GROUP BY vault_id HAVING COUNT(*) > ? OR MIN(heard_at_ms) < ?",
            arguments: [PeerKnowledge.maxPerVault, silentBefore]
        )
    }

    /// Deletes the peers of `vault` not heard from directly since `silentBefore`, then those
    /// beyond `maxPerVault` in keep order.
    /// - Returns: how many it deleted.
    package func dropPeers(_ vault: String, silentBefore: Int64) throws -> Int {
        try db.execute(
            sql: "DELETE FROM peer WHERE vault_id = ? AND heard_at_ms < ?",
            arguments: [vault, silentBefore]
        )
        let silent = db.changesCount
        try db.execute(
            sql: """
                DELETE FROM peer WHERE vault_id = ? AND replica_id NOT IN
                  (SELECT replica_id FROM peer WHERE vault_id = ? ORDER BY \(Self.peerKeepOrder) LIMIT ?)
                """,
            arguments: [vault, vault, PeerKnowledge.maxPerVault]
        )
        return silent + db.changesCount
    }

    /// Up to which of this replica's change sequence numbers `peer` is known to hold `vault`.
    package func acknowledged(_ vault: String, by peer: ReplicaID) throws -> Int64 {
        try self.peer(vault, peer)?.ackedSeq ?? 0
    }

    /// The least of this replica's change sequence numbers that every peer of `vault` heard
    /// from at or after `heardSince` holds (0 when there is none: a full export).
    package func leastAcknowledged(_ vault: String, heardSince: Int64) throws -> Int64 {
        try Int64.fetchOne(
            db,
            sql: "SELECT MIN(acked_seq) FROM peer WHERE vault_id = ? AND heard_at_ms >= ?",
            arguments: [vault, heardSince]
        ) ?? 0
    }

    // MARK: - Epochs

    /// This replica's epochs from the one holding change `seq` (from the first when `seq` is 0)
    /// to the current one, oldest first; at most one more than a lineage may list, so that a
    /// caller sees there are too many without reading them all.
    package func epochs(from seq: Int64) throws -> [Epoch] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT id, first_seq FROM epoch
                WHERE first_seq >= COALESCE((SELECT MAX(first_seq) FROM epoch WHERE first_seq <= ?), 0)
                ORDER BY first_seq LIMIT ?
                """,
            arguments: [seq, ChangeSetHeader.maxEpochs + 1]
        ).map { Epoch(id: EpochID(rawValue: $0["id"]), firstSeq: $0["first_seq"]) }
    }

    /// Whether this replica numbered a change `seq` in `epoch` (and has made it: `seq ≤ made`).
    package func issued(_ seq: Int64, in epoch: EpochID, made: Int64) throws -> Bool {
        guard seq <= made,
            let first = try Int64.fetchOne(
                db,
                sql: "SELECT first_seq FROM epoch WHERE id = ?",
                arguments: [epoch.rawValue]
            ),
            seq >= first
        else { return false }
        let next = try Int64.fetchOne(
            db,
            sql: "SELECT MIN(first_seq) FROM epoch WHERE first_seq > ?",
            arguments: [first]
        )
        return next.map { seq < $0 } ?? true
    }
}

extension RecordStore {
    /// After this device wrote a file of `vault` holding its changes through `seq` (at
    /// `now`): every peer that syncs (heard from directly) and does not hold them is waited on
    /// to acknowledge them, unless it is waited on already (crdt.md, "Peers that do not read").
    package func awaitAcknowledgements(_ vault: String, through seq: Int64, now: Int64) throws {
        for var peer in try peers(vault)
        where peer.heardAtMillis != nil && peer.ackedSeq < seq && peer.waitingFor == nil {
            peer.waitingFor = AcknowledgementWait(seq: seq, sinceMillis: now, theirSeq: peer.haveSeq)
            try save(peer, vault: vault)
        }
    }
}
