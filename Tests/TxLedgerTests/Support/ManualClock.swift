import Foundation

/// A wall clock that tests set and move by hand (backwards too).
final class ManualClock: @unchecked Sendable {
    // @unchecked: `now` is only touched under `lock`.
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date(timeIntervalSince1970: 1_751_371_200)) { current = start }

    var now: Date {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }

    func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }

    /// The closure a `Ledger.Options` takes.
    var wallClock: @Sendable () -> Date { { [self] in now } }
}
