import Foundation

/// A request to move a record's status, with its metadata.
public struct StatusUpdate: Hashable, Sendable {
    public let status: TransactionStatus
    public let confirmedAt: Date?
    public let failureReason: String?

    /// - Throws: `LedgerError.invalidInput` if `confirmedAt` comes with a status other than
    ///   confirmed, or `failureReason` with a status other than failed.
    public init(_ status: TransactionStatus, confirmedAt: Date? = nil, failureReason: String? = nil) throws {
        if confirmedAt != nil, status != .confirmed {
            throw LedgerError.invalidInput(field: "confirmedAt", reason: "only a confirmed transaction has a confirmation time")
        }
        if failureReason != nil, status != .failed {
            throw LedgerError.invalidInput(field: "failureReason", reason: "only a failed transaction has a failure reason")
        }
        self.status = status
        self.confirmedAt = try confirmedAt.map { Date(millis: try Date.validatedMillis($0, field: "confirmedAt")) }
        self.failureReason = try TextField.text(max: 4096).validate(failureReason, field: "failureReason")
    }

    public static let pending = try! StatusUpdate(.pending)

    public static func confirmed(at date: Date? = nil) throws -> StatusUpdate {
        try StatusUpdate(.confirmed, confirmedAt: date)
    }

    public static func failed(reason: String? = nil) throws -> StatusUpdate {
        try StatusUpdate(.failed, failureReason: reason)
    }
}
