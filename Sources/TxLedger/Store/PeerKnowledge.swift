import GRDB

/// What a replica knows of one peer for one vault (the `peer` table, crdt.md "Deltas").
struct PeerKnowledge: Sendable, Equatable {
    let replica: ReplicaID
    /// This replica holds every change of the peer up to the peer's number `haveSeq`, made in
    /// the peer's epoch `haveEpoch` (`nil`: learned from a change set without epochs).
    var haveSeq: Int64 = 0
    var haveEpoch: EpochID?
    /// The peer holds every change of this replica up to this replica's number `ackedSeq`.
    var ackedSeq: Int64 = 0
    /// When a change set from the peer itself was last merged here (`nil`: never, or forgotten).
    var heardAtMillis: Int64?

    init(replica: ReplicaID) {
        self.replica = replica
    }

    init(row: Row) {
        replica = ReplicaID(rawValue: row["replica_id"])
        haveSeq = row["have_seq"]
        let epoch: Int64? = row["have_epoch"]
        haveEpoch = epoch.flatMap { $0 > 0 ? EpochID(rawValue: $0) : nil }
        ackedSeq = row["acked_seq"]
        heardAtMillis = row["heard_at_ms"]
    }
}
