import Foundation

@testable import TxLedger
@testable import TxLedgerStatus

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

/// The polling loop's clock: `sleep(until:)` suspends until the test moves time past the deadline.
final class ManualRefreshClock: RefreshClock, @unchecked Sendable {
    // @unchecked: `sleepers` and `waiters` are only touched under `lock`.
    let clock: ManualClock
    private let lock = NSLock()
    private var sleepers: [(deadline: Date, continuation: CheckedContinuation<Void, any Error>, id: UUID)] = []
    private var waiters: [CheckedContinuation<Date?, Never>] = []
    private var finished = false

    init(_ clock: ManualClock) { self.clock = clock }

    var now: Date { clock.now }

    func sleep(until deadline: Date) async throws {
        if deadline <= now { return }
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled { return continuation.resume(throwing: CancellationError()) }
                let waiting: [CheckedContinuation<Date?, Never>] = locked {
                    sleepers.append((deadline, continuation, id))
                    defer { waiters = [] }
                    return waiters
                }
                for waiter in waiting { waiter.resume(returning: deadline) }
            }
        } onCancel: {
            let cancelled = locked { () -> CheckedContinuation<Void, any Error>? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// Waits until the loop sleeps, and returns its deadline; `nil` once `finish()` was called.
    func nextDeadline() async -> Date? {
        await withCheckedContinuation { continuation in
            let answer: Date?? = locked {
                if let first = sleepers.map(\.deadline).min() { return .some(first) }
                if finished { return .some(nil) }
                waiters.append(continuation)
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Says the loop has returned: `nextDeadline()` answers `nil` from now on.
    func finish() {
        let waiting = locked { () -> [CheckedContinuation<Date?, Never>] in
            finished = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume(returning: nil) }
    }

    /// Moves time to `date` and wakes every sleeper whose deadline has come.
    func advance(to date: Date) {
        clock.now = date
        let woken = locked { () -> [CheckedContinuation<Void, any Error>] in
            let due = sleepers.filter { $0.deadline <= date }
            sleepers.removeAll { $0.deadline <= date }
            return due.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
