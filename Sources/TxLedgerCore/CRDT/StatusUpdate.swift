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
    /// The status details by key: optional values of a proven outcome, each one entry of the
    /// field list (Specs/schema.md, "Status details"), as text; the typed accessors below
    /// read them.
    public let details: [String: String]
    /// How the terminal status was learned (`.proof` for every other status): an inference is
    /// shown only while nothing is proven (Specs/crdt.md, "Status").
    public let evidence: StatusEvidence
    /// Whether a status check read this outcome from the chain (on any device), rather than a
    /// device's word (the app's or the user's): the chain's answer outranks every word,
    /// whatever the stamps (Specs/crdt.md, "Outcomes the chain settles").
    public let checkedOnChain: Bool

    /// The keys `details` may hold.
    public static let detailKeys = RecordField.statusDetails.map(\.key)

    /// The block (height, slot) that holds the transaction; only for a proven terminal status.
    public var blockNumber: UInt64? { details[RecordField.blockNumber.key].flatMap { UInt64($0) } }
    /// The fee actually paid, in the chain's native unit; only for a proven terminal status.
    public var feePaid: DecimalAmount? { details[RecordField.feePaid.key].map(DecimalAmount.init(checked:)) }
    /// The hash of the transaction that took this one's place; only for a proven failure.
    public var replacedBy: String? { details[RecordField.replacedBy.key] }

    /// - Parameter details: status details by key (`detailKeys`), beside those given by name.
    /// - Throws: `LedgerError.invalidInput` if `confirmedAt` comes with a status other than
    ///   confirmed, `failureReason` with a status other than failed, a detail with a status or
    ///   evidence its rule does not admit (`blockNumber` and `feePaid` come only with a proven
    ///   terminal status, `replacedBy` only with a proven failure), an inference of a status
    ///   other than failed or without a reason, an unknown detail, or a value out of range.
    public init(
        _ status: TransactionStatus,
        confirmedAt: Date? = nil,
        failureReason: String? = nil,
        blockNumber: UInt64? = nil,
        feePaid: DecimalAmount? = nil,
        replacedBy: String? = nil,
        details: [String: String] = [:],
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
        var given = details
        for (key, value) in Self.details(block: blockNumber, feePaid: feePaid, replacedBy: replacedBy) {
            guard given.updateValue(value, forKey: key) == nil else { throw refuse(key, "is given twice") }
        }
        // The first unknown key in key order, so that the error names the same one whatever
        // the order (the keys are not sorted to find it).
        if let unknown = given.keys.filter({ !Self.detailKeys.contains($0) }).min() {
            throw refuse(
                String(unknown.prefix(40)),
                "is not a status detail (\(Self.detailKeys.joined(separator: ", ")))"
            )
        }
        // Every key is known: each value is replaced by its valid form where it differs (a
        // received or stored detail is in it already, and its dictionary is kept, not made again).
        var checked = given
        for field in RecordField.statusDetails where !given.isEmpty {
            guard let value = given[field.key], let rule = field.statusDetail else { continue }
            guard rule.admits(status, evidence) else { throw refuse(field.key, rule.refusal) }
            let valid = try rule.validated(value, key: field.key)
            if valid != value { checked[field.key] = valid }
        }
        self.init(
            checked: status,
            confirmedAt: try confirmedAt.map { Date(millis: try Date.validatedMillis($0, field: "confirmedAt")) },
            failureReason: try TextField.text(max: 4096).validate(failureReason, field: "failureReason"),
            details: checked,
            evidence: evidence
        )
    }

    /// An update whose values are already checked (read from a register, or made here).
    init(
        checked status: TransactionStatus,
        confirmedAt: Date? = nil,
        failureReason: String? = nil,
        details: [String: String] = [:],
        evidence: StatusEvidence = .proof,
        checkedOnChain: Bool = false
    ) {
        self.status = status
        self.confirmedAt = confirmedAt
        self.failureReason = failureReason
        self.details = details
        self.evidence = evidence
        self.checkedOnChain = checkedOnChain && status.isTerminal && evidence == .proof
    }

    /// This outcome as a status check read it from the chain (a proven terminal status; any
    /// other update is returned as it is).
    package var readOnChain: StatusUpdate {
        StatusUpdate(
            checked: status,
            confirmedAt: confirmedAt,
            failureReason: failureReason,
            details: details,
            evidence: evidence,
            checkedOnChain: true
        )
    }

    /// The part of a terminal claim a dispute is about: the status, the block and the fee paid
    /// (and whether the chain said it). A rival claim is kept as this (crdt.md, "Outcomes the
    /// chain settles").
    package var disputedPart: StatusUpdate {
        StatusUpdate(
            checked: status,
            details: details.filter { $0.key == RecordField.blockNumber.key || $0.key == RecordField.feePaid.key },
            checkedOnChain: checkedOnChain
        )
    }

    /// Whether this claim and `other` agree: the same status, block and fee paid (a claim that
    /// names no block differs from one that names one), whoever said them.
    package func agrees(with other: StatusUpdate) -> Bool {
        let (mine, theirs) = (disputedPart, other.disputedPart)
        return mine.status == theirs.status && mine.details == theirs.details
    }

    /// The details given by name, by key.
    private static func details(block: UInt64?, feePaid: DecimalAmount?, replacedBy: String?) -> [String: String] {
        // Only what is given: setting an absent one to nil hashes its key for nothing.
        var details: [String: String] = [:]
        if let block { details[RecordField.blockNumber.key] = String(block) }
        if let feePaid { details[RecordField.feePaid.key] = feePaid.string }
        if let replacedBy { details[RecordField.replacedBy.key] = replacedBy }
        return details
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
        StatusUpdate(
            checked: .confirmed,
            confirmedAt: date,
            details: details(block: block, feePaid: feePaid, replacedBy: nil)
        )
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
            details: details(block: block, feePaid: feePaid, replacedBy: replacedBy)
        )
    }

    /// Failed by inference ("dropped or replaced"): shown only while nothing is proven, and
    /// overturned by any proof, whenever it comes.
    public static func inferredFailure(reason: String) -> StatusUpdate {
        StatusUpdate(checked: .failed, failureReason: reason, evidence: .inference)
    }

    /// This update checked for a record of `chain`: `validated()`, with each detail in its
    /// canonical form for the chain (`replacedBy` a hash of the chain).
    /// - Throws: `LedgerError.invalidInput` as `init` does, or for a `replacedBy` that is not
    ///   a hash of `chain`.
    package func validated(for chain: Chain) throws -> StatusUpdate {
        let update = try validated()
        var details: [String: String] = [:]
        for field in RecordField.statusDetails {
            guard let value = update.details[field.key], let rule = field.statusDetail else { continue }
            details[field.key] = try rule.canonical(value, key: field.key, chain: chain)
        }
        return StatusUpdate(
            checked: update.status,
            confirmedAt: update.confirmedAt,
            failureReason: update.failureReason,
            details: details,
            evidence: update.evidence,
            checkedOnChain: checkedOnChain
        )
    }

    /// This update with its time in whole milliseconds and its values checked.
    /// - Throws: `LedgerError.invalidInput` as `init` does.
    package func validated() throws -> StatusUpdate {
        let update = try StatusUpdate(
            status,
            confirmedAt: confirmedAt,
            failureReason: failureReason,
            details: details,
            evidence: evidence
        )
        return checkedOnChain ? update.readOnChain : update
    }
}
