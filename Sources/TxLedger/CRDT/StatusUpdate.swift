import Foundation

/// A request to move a record's status, with its metadata.
///
/// `confirmed(at:)` and `failed(reason:)` never throw: the time and the reason are checked where
/// the update is applied (`Ledger.updateStatus(_:to:)`, `TransactionRecord.init`), which throw
/// `LedgerError.invalidInput` for a time outside 1970–9999 or a reason over its limits.
public struct StatusUpdate: Hashable, Sendable {
    public let status: TransactionStatus
    public let confirmedAt: Date?
    public let failureReason: String?

    /// - Throws: `LedgerError.invalidInput` if `confirmedAt` comes with a status other than
    ///   confirmed, or `failureReason` with a status other than failed, or either is out of range.
    public init(_ status: TransactionStatus, confirmedAt: Date? = nil, failureReason: String? = nil) throws {
        if confirmedAt != nil, status != .confirmed {
            throw LedgerError.invalidInput(
                field: "confirmedAt",
                reason: "only a confirmed transaction has a confirmation time"
            )
        }
        if failureReason != nil, status != .failed {
            throw LedgerError.invalidInput(
                field: "failureReason",
                reason: "only a failed transaction has a failure reason"
            )
        }
        self.init(
            checked: status,
            confirmedAt: try confirmedAt.map { Date(millis: try Date.validatedMillis($0, field: "confirmedAt")) },
            failureReason: try TextField.text(max: 4096).validate(failureReason, field: "failureReason")
        )
    }

    private init(checked status: TransactionStatus, confirmedAt: Date?, failureReason: String?) {
        self.status = status
        self.confirmedAt = confirmedAt
        self.failureReason = failureReason
    }

    public static let pending = StatusUpdate(checked: .pending, confirmedAt: nil, failureReason: nil)

    /// Confirmed, at the block's time when it is known.
    public static func confirmed(at date: Date? = nil) -> StatusUpdate {
        StatusUpdate(checked: .confirmed, confirmedAt: date, failureReason: nil)
    }

    /// Failed, with the chain's or the user's reason when there is one.
    public static func failed(reason: String? = nil) -> StatusUpdate {
        StatusUpdate(checked: .failed, confirmedAt: nil, failureReason: reason)
    }

    /// This update with its time in whole milliseconds and its reason checked.
    /// - Throws: `LedgerError.invalidInput` for a time outside 1970–9999 or a reason over its limits.
    func validated() throws -> StatusUpdate {
        try StatusUpdate(status, confirmedAt: confirmedAt, failureReason: failureReason)
    }
}
