import Foundation

/// Hands out the stamps of one write transaction from the clock loaded at its start.
struct StampSource {
    private(set) var clock: HybridClock
    let wallClock: @Sendable () -> Date
    /// Whether any stamp was issued, i.e. whether the clock must be saved.
    private(set) var issued = false

    init(clock: HybridClock, wallClock: @escaping @Sendable () -> Date) {
        self.clock = clock
        self.wallClock = wallClock
    }

    mutating func next() -> Stamp {
        issued = true
        return clock.tick(wallMillis: wallClock().millis)
    }
}
