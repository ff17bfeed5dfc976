import Foundation

/// A wall clock that tests set and move by hand (backwards too).
final class ManualClock: @unchecked Sendable {
    // @unchecked: `now` is only touched under `lock`.
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date(timeIntervalSince1970: 1_751_371_200)) { current = start }

    var now: Date {
        get { locked { current } }
        set { locked { current = newValue } }
    }

    func advance(by seconds: TimeInterval) { locked { current += seconds } }

    // NSLocking.withLock needs macOS 14; the package supports macOS 13.
    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// The closure a `Ledger.Options` takes.
    var wallClock: @Sendable () -> Date { { [self] in now } }
}
