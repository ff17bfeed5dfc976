import TxLedgerCore

/// The result of a status update.
public struct StatusUpdateResult: Hashable, Sendable {
    /// The record after the update (unchanged if `refusal` is set).
    public let record: TransactionRecord
    public let previousStatus: TransactionStatus
    /// Why nothing changed, or `nil` if the update was applied.
    public let refusal: StatusUpdateRefusal?

    public var changed: Bool { refusal == nil }
}
