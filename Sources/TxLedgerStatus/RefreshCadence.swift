import Foundation
import TxLedgerCore

/// How often the polling loop checks a record, by its age (time since broadcast), as the
/// reference specs ask: every 5 s during its first minute, every 15 s until it is 10 minutes
/// old, then every 30 s.
public struct RefreshCadence: Sendable {
    /// `(age below which, interval)`, by increasing age; past the last, `finalInterval`.
    public let steps: [(TimeInterval, TimeInterval)]
    public let finalInterval: TimeInterval

    public static let standard = try! RefreshCadence(steps: [(60, 5), (600, 15)], finalInterval: 30)

    /// - Throws: `LedgerError.invalidInput` unless every interval is positive and the ages
    ///   increase (an interval of 0 would poll without pause).
    public init(steps: [(TimeInterval, TimeInterval)], finalInterval: TimeInterval) throws {
        guard (steps.map(\.1) + [finalInterval]).allSatisfy({ $0 > 0 }) else {
            throw LedgerError.invalidInput(field: "cadence", reason: "every interval must be more than 0 seconds")
        }
        guard zip(steps, steps.dropFirst()).allSatisfy({ $0.0 < $1.0 }) else {
            throw LedgerError.invalidInput(field: "cadence", reason: "the ages of the steps must increase")
        }
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
