import Foundation

/// A request to move a record's status, with its metadata and its evidence.
///
/// `confirmed(at:block:feePaid:)`, `failed(reason:block:feePaid:)` and
/// `inferredFailure(reason:)` never throw: the time, the reason and the numbers are checked
/// where the update is applied (`Ledger.updateStatus(_:to:)`, `TransactionRecord.init`), which
/// throw `LedgerError.invalidInput` for a time outside 1970–9999, a reason over its limits or a
/// block number above `Int64.max`.
public struct StatusUpdate: Hashable, Sendable {
    public let status: TransactionStatus
    public let confirmedAt: Date?
    public let failureReason: String?
    /// The block (height, slot) that holds the transaction; only for a proven terminal status.
    public let blockNumber: UInt64?
    /// The fee actually paid, in the chain's native unit; only for a proven terminal status.
    public let feePaid: DecimalAmount?
    /// The hash of the transaction that took this one's place; only for a proven failure.
    public let replacedBy: String?
    /// How the terminal status was learned (`.proof` for every other status): an inference is
    /// shown only while nothing is proven (Specs/crdt.md, "Status").
    public let evidence: StatusEvidence

    /// - Throws: `LedgerError.invalidInput` if `confirmedAt` comes with a status other than
    ///   confirmed, `failureReason` with a status other than failed, `blockNumber` or `feePaid`
    ///   with a status that is not terminal or with an inference, an inference of a status other
    ///   than failed or without a reason, or a value out of range.
    public init(
        _ status: TransactionStatus,
        confirmedAt: Date? = nil,
        failureReason: String? = nil,
        blockNumber: UInt64? = nil,
        feePaid: DecimalAmount? = nil,
        replacedBy: String? = nil,
        evidence: StatusEvidence = .proof
    ) throws {
        func refuse(_ field: String, _ reason: String) -> LedgerError {
            LedgerError.invalidInput(field: field, reason: reason)
        }
        if confirmedAt != nil, status != .confirmed {
            throw refuse("confirmedAt", "only a confirmed transaction has a confirmation time")
        }
        if failureReason != nil, status != .failed {
            throw refuse("failureReason", "only a failed transaction has a failure reason")
        }
        if evidence == .inference, status != .failed {
            throw refuse("evidence", "only a failure is inferred; any other status is proven")
        }
        if evidence == .inference, failureReason == nil {
            throw refuse("failureReason", "an inferred failure says what it was inferred from")
        }
        for (field, present) in [("blockNumber", blockNumber != nil), ("feePaid", feePaid != nil)] where present {
            guard status.isTerminal, evidence == .proof else {
                throw refuse(field, "only a proven confirmation or failure has one")
            }
        }
        if replacedBy != nil, status != .failed || evidence != .proof {
            throw refuse("replacedBy", "only a proven failure is replaced by another transaction")
        }
        if let blockNumber, blockNumber > UInt64(Int64.max) {
            throw refuse("blockNumber", "\(blockNumber) is out of range")
        }
        self.init(
            checked: status,
            confirmedAt: try confirmedAt.map { Date(millis: try Date.validatedMillis($0, field: "confirmedAt")) },
            failureReason: try TextField.text(max: 4096).validate(failureReason, field: "failureReason"),
            blockNumber: blockNumber,
            feePaid: feePaid,
            replacedBy: try TextField.identifier.validate(replacedBy, field: "replacedBy"),
            evidence: evidence
        )
    }

    /// An update whose values are already checked (read from a register, or made here).
    init(
        checked status: TransactionStatus,
        confirmedAt: Date? = nil,
        failureReason: String? = nil,
        blockNumber: UInt64? = nil,
        feePaid: DecimalAmount? = nil,
        replacedBy: String? = nil,
        evidence: StatusEvidence = .proof
    ) {
        self.status = status
        self.confirmedAt = confirmedAt
        self.failureReason = failureReason
        self.blockNumber = blockNumber
        self.feePaid = feePaid
        self.replacedBy = replacedBy
        self.evidence = evidence
    }

    public static let pending = StatusUpdate(checked: .pending)

    /// No status moved yet: what a new record carries without one.
    static let broadcasted = StatusUpdate(checked: .broadcasted)

    /// Confirmed, proven, at the block's time, in the block, with the fee paid, where known.
    public static func confirmed(
        at date: Date? = nil,
        block: UInt64? = nil,
        feePaid: DecimalAmount? = nil
    )
        -> StatusUpdate
    {
        StatusUpdate(checked: .confirmed, confirmedAt: date, blockNumber: block, feePaid: feePaid)
    }

    /// Failed, proven (a revert, an error code, the user's word), with the chain's or the
    /// user's reason, the block, the fee paid, and the transaction that took its place, where
    /// known.
    public static func failed(
        reason: String? = nil,
        block: UInt64? = nil,
        feePaid: DecimalAmount? = nil,
        replacedBy: String? = nil
    ) -> StatusUpdate {
        StatusUpdate(
            checked: .failed,
            failureReason: reason,
            blockNumber: block,
            feePaid: feePaid,
            replacedBy: replacedBy
        )
    }

    /// Failed by inference ("dropped or replaced"): shown only while nothing is proven, and
    /// overturned by any proof, whenever it comes.
    public static func inferredFailure(reason: String) -> StatusUpdate {
        StatusUpdate(checked: .failed, failureReason: reason, evidence: .inference)
    }

    /// This update checked for a record of `chain`: `validated()`, with `replacedBy` in the
    /// chain's canonical hash form.
    /// - Throws: `LedgerError.invalidInput` as `init` does, or for a `replacedBy` that is not
    ///   a hash of `chain`.
    package func validated(for chain: Chain) throws -> StatusUpdate {
        let update = try validated()
        guard let hash = update.replacedBy else { return update }
        let canonical: String
        do {
            canonical = try chain.normalizedTxHash(hash)
        } catch let error as LedgerError where error.code == .invalidInput {
            throw LedgerError.invalidInput(field: "replacedBy", reason: error.reason ?? "", underlying: error)
        }
        return StatusUpdate(
            checked: update.status,
            failureReason: update.failureReason,
            blockNumber: update.blockNumber,
            feePaid: update.feePaid,
            replacedBy: canonical
        )
    }

    /// This update with its time in whole milliseconds and its values checked.
    /// - Throws: `LedgerError.invalidInput` as `init` does.
    package func validated() throws -> StatusUpdate {
        try StatusUpdate(
            status,
            confirmedAt: confirmedAt,
            failureReason: failureReason,
            blockNumber: blockNumber,
            feePaid: feePaid,
            replacedBy: replacedBy,
            evidence: evidence
        )
    }
}
