import Foundation

/// How a transaction ended, with the metadata that travels with it.
struct TerminalOutcome: Hashable, Sendable {
    /// `.confirmed` or `.failed`.
    let status: TransactionStatus
    /// When it confirmed (block time where known); only for `.confirmed`.
    let confirmedAt: Date?
    /// Why it failed, e.g. `reverted` or `dropped or replaced`; only for `.failed`.
    let failureReason: String?

    init(status: TransactionStatus, confirmedAt: Date?, failureReason: String?) {
        precondition(status.isTerminal)
        self.status = status
        self.confirmedAt = confirmedAt
        self.failureReason = failureReason
    }
}
