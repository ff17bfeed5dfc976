import GRDB
import TxLedgerCore

/// What a replica knows of one peer for one vault (the `peer` table, crdt.md "Deltas").
package struct PeerKnowledge: Sendable, Equatable {
    package let replica: ReplicaID
    /// This replica holds every change of the peer up to the peer's number `haveSeq`, made in
    /// the peer's epoch `haveEpoch` (`nil`: learned from a change set without epochs).
    package var haveSeq: Int64 = 0
    package var haveEpoch: EpochID?
    /// The peer holds every change of this replica up to this replica's number `ackedSeq`.
    package var ackedSeq: Int64 = 0
    /// When a change set from the peer itself was last merged here (`nil`: never; a forgotten
    /// peer has no row at all).
    package var heardAtMillis: Int64?

    /// Most peers a replica keeps per vault, and so most knowledge entries a change set it
    /// writes carries (crdt.md, "Limits of knowledge"); far below what a reader accepts
    /// (`ChangeSetHeader.maxEpochs`).
    package static let maxPerVault = 256
    /// A peer not heard from directly for this long is dropped: a year, in milliseconds.
    package static let maxSilenceMillis: Int64 = 365 * 24 * 60 * 60 * 1000

    package init(replica: ReplicaID) {
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
