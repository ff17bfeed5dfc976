import Foundation

/// How a transaction ended, proven, with the metadata learned with it.
package struct TerminalOutcome: Hashable, Sendable {
    /// `.confirmed` or `.failed`.
    package let status: TransactionStatus
    /// When it confirmed (block time where known); only for `.confirmed`.
    let confirmedAt: Date?
    /// Why it failed, e.g. `reverted`; only for `.failed`.
    let failureReason: String?
    /// The block (height, slot) that holds the transaction, where the chain said.
    let blockNumber: UInt64?
    /// The fee the transaction paid, in the chain's native unit, where the chain said.
    let feePaid: DecimalAmount?
    /// The hash of the transaction that took this one's place (a speed-up or cancel that
    /// confirmed, or the original that confirmed before its replacement); only for `.failed`.
    package let replacedBy: String?

    init(
        status: TransactionStatus,
        confirmedAt: Date?,
        failureReason: String?,
        blockNumber: UInt64? = nil,
        feePaid: DecimalAmount? = nil,
        replacedBy: String? = nil
    ) {
        precondition(status.isTerminal)
        self.status = status
        self.confirmedAt = confirmedAt
        self.failureReason = failureReason
        self.blockNumber = blockNumber
        self.feePaid = feePaid
        self.replacedBy = replacedBy
    }
}
