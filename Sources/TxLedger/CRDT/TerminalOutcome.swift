import Foundation

/// How a transaction ended, with the metadata that travels with it.
public struct TerminalOutcome: Hashable, Sendable {
    /// `.confirmed` or `.failed`.
    public let status: TransactionStatus
    /// When it confirmed (block time where known); only for `.confirmed`.
    public let confirmedAt: Date?
    /// Why it failed, e.g. `reverted` or `dropped or replaced`; only for `.failed`.
    public let failureReason: String?

    init(status: TransactionStatus, confirmedAt: Date?, failureReason: String?) {
        precondition(status.isTerminal)
        self.status = status
        self.confirmedAt = confirmedAt
        self.failureReason = failureReason
    }
}
