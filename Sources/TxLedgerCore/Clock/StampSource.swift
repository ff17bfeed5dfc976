import Foundation

/// Hands out the stamps of one write transaction from the clock loaded at its start.
package struct StampSource {
    package private(set) var clock: HybridClock
    package let wallClock: @Sendable () -> Date
    /// Whether any stamp was issued, i.e. whether the clock must be saved.
    package private(set) var issued = false

    package init(clock: HybridClock, wallClock: @escaping @Sendable () -> Date) {
        self.clock = clock
        self.wallClock = wallClock
    }

    package mutating func next() -> Stamp {
        issued = true
        return clock.tick(wallMillis: wallClock().millis)
    }

    /// The stamp of a local write that replaces a value stamped `current`: the next clock stamp,
    /// or just after `current` if that is later (a value from a device whose clock runs far
    /// ahead). A user's edit thus always wins over what it replaces, without moving the clock.
    /// - Throws: `LedgerError.invalidInput` if `current` is at `Stamp.latestTime` (only a forged
    ///   stamp can be): nothing later can be stamped.
    package mutating func next(after current: Stamp?) throws -> Stamp {
        let stamp = next()
        guard let current, current >= stamp else { return stamp }
        guard current.time < Stamp.latestTime else {
            throw LedgerError.invalidInput(
                field: "stamp",
                reason:
                    "what this write replaces is stamped at the end of the stamp range (the year 3000) by replica \(current.replica), so no later stamp exists"
            )
        }
        return Stamp(time: current.time + 1, replica: stamp.replica)
    }

    /// Stamps from now on carry `replica`: the file took a new replica id (crdt.md, "Restored
    /// and cloned files").
    package mutating func adopt(_ replica: ReplicaID) {
        clock = HybridClock(replica: replica, last: clock.last, maxForwardDrift: clock.maxForwardDrift)
    }

    /// Whether `remote` is too far ahead of the wall clock when it read `wallMillis`.
    package func isTooFarAhead(_ remote: Stamp, wallMillis: Int64) -> Bool {
        clock.isTooFarAhead(remote, wallMillis: wallMillis)
    }

    /// Lets a remote stamp advance the clock (see `HybridClock.observe`).
    package mutating func observe(_ remote: Stamp) -> HybridClock.Observation {
        let observation = clock.observe(remote, wallMillis: wallClock().millis)
        if observation == .advanced { issued = true }
        return observation
    }
}
