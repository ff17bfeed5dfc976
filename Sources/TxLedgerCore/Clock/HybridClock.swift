/// A hybrid logical clock (Kulkarni et al., 2014) for one replica.
///
/// A value type: the ledger keeps the clock's state in the database and loads, advances and
/// saves it inside each write transaction, so the clock never goes backwards across restarts,
/// wall-clock jumps, or several processes writing the same file. See `Specs/crdt.md`.
package struct HybridClock: Sendable, Equatable {
    package let replica: ReplicaID
    /// The last `Stamp.time` issued or observed (0 for a new replica).
    package private(set) var last: Int64
    let maxForwardDrift: Int64

    /// One day: a device whose clock is wrong by hours still syncs its clock forward.
    package static let defaultMaxForwardDriftMillis: Int64 = 24 * 60 * 60 * 1000

    /// - Parameter maxForwardDrift: how far (ms) ahead of the local wall clock a remote stamp may
    ///   be and still advance this clock.
    package init(replica: ReplicaID, last: Int64, maxForwardDrift: Int64 = defaultMaxForwardDriftMillis) {
        self.replica = replica
        self.last = last
        self.maxForwardDrift = maxForwardDrift
    }

    /// Issues the stamp of a local write: later than every stamp issued or observed before,
    /// and equal to the wall clock whenever the wall clock is ahead.
    mutating func tick(wallMillis: Int64) -> Stamp {
        last = max(last + 1, wallMillis << Stamp.counterBits)
        return Stamp(time: last, replica: replica)
    }

    /// Outcome of observing a remote stamp.
    package enum Observation: Equatable {
        /// The clock now runs at or after the remote stamp.
        case advanced
        /// The remote stamp is more than `maxForwardDrift` ahead of the local wall clock: the
        /// clock ignores it (it must not be poisoned by a device whose clock runs far ahead).
        /// The data it stamps is still kept by the merge; the merge reports it.
        case tooFarAhead
    }

    /// Takes a stamp received from another replica into account, so that local writes issued
    /// afterwards order after it (unless it is too far ahead of the wall clock).
    mutating func observe(_ remote: Stamp, wallMillis: Int64) -> Observation {
        guard !isTooFarAhead(remote, wallMillis: wallMillis) else { return .tooFarAhead }
        last = max(last, remote.time)
        return .advanced
    }

    func isTooFarAhead(_ remote: Stamp, wallMillis: Int64) -> Bool {
        remote.millis > wallMillis + maxForwardDrift
    }
}
