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
    /// The change of this replica the peer is waited on to acknowledge, if any.
    package var waitingFor: AcknowledgementWait?

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
        if let seq: Int64 = row["wait_seq"], let since: Int64 = row["wait_since_ms"],
            let theirs: Int64 = row["wait_their_seq"], let advances: Int = row["wait_advances"]
        {
            waitingFor = AcknowledgementWait(seq: seq, sinceMillis: since, theirSeq: theirs, advances: advances)
        }
    }

    /// What this replica learns from a change set of the peer through its change `through`,
    /// once its acknowledgement is known: the wait ends when it holds the awaited change, and
    /// counts one more change set of the peer's without it otherwise.
    package mutating func noteChangeSet(through: Int64) {
        guard var wait = waitingFor else { return }
        if ackedSeq >= wait.seq {
            waitingFor = nil
        } else if through > wait.theirSeq {
            wait.advances += 1
            wait.theirSeq = through
            waitingFor = wait
        }
    }
}
