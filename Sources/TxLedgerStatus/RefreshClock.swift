import Foundation

/// The time the polling loop reads and waits on. Tests inject a clock they advance by hand, so
/// the cadence is tested without sleeping.
public protocol RefreshClock: Sendable {
    var now: Date { get }
    /// Returns at `deadline` (or at once if it has passed).
    /// - Throws: `CancellationError` if the task is cancelled while waiting.
    func sleep(until deadline: Date) async throws
}

/// The system's wall clock.
public struct SystemRefreshClock: RefreshClock {
    public init() {}

    public var now: Date { Date() }

    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        if seconds > 0 { try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000)) }
    }
}
