import Foundation

/// How often the polling loop checks a record, by its age (time since broadcast), as the
/// reference specs ask: every 5 s during its first minute, every 15 s until it is 10 minutes
/// old, then every 30 s.
public struct RefreshCadence: Sendable {
    /// `(age below which, interval)`, by increasing age; past the last, `finalInterval`.
    public let steps: [(TimeInterval, TimeInterval)]
    public let finalInterval: TimeInterval

    public static let standard = RefreshCadence(steps: [(60, 5), (600, 15)], finalInterval: 30)

    public init(steps: [(TimeInterval, TimeInterval)], finalInterval: TimeInterval) {
        self.steps = steps
        self.finalInterval = finalInterval
    }

    /// The wait before checking again a record that is `age` seconds old now.
    public func interval(age: TimeInterval) -> TimeInterval {
        steps.first { age < $0.0 }?.1 ?? finalInterval
    }

    /// The shortest interval: how often the loop looks for newly recorded transactions.
    var shortest: TimeInterval { (steps.map(\.1) + [finalInterval]).min()! }

}
