/// How a status detail's value is checked (`RecordField.statusDetail`). A status detail is an
/// optional value of a proven outcome, kept by key in `StatusUpdate.details`, as text, and
/// carried, stored, shown, compared and validated by its entry in the field list alone; a
/// typed accessor on `StatusUpdate` gives it its type (`blockNumber`, `feePaid`, `replacedBy`).
enum StatusDetailRule: Sendable {
    /// The block (height, slot) that holds the transaction: a whole number from 0 to 2^63 - 1,
    /// in decimal; only a proven confirmation or failure has one.
    case blockHeight
    /// An amount in the chain's native unit (a `DecimalAmount`); only a proven confirmation or
    /// failure has one.
    case nativeAmount
    /// The hash of the transaction that took the record's place, in the record's chain's
    /// canonical form; only a proven failure has one.
    case replacingHash

    /// Whether an update of `status`, learned by `evidence`, may carry the detail.
    func admits(_ status: TransactionStatus, _ evidence: StatusEvidence) -> Bool {
        guard evidence == .proof else { return false }
        switch self {
        case .blockHeight, .nativeAmount: return status.isTerminal
        case .replacingHash: return status == .failed
        }
    }

    /// Why an update that `admits` refuses may not carry the detail.
    var refusal: String {
        switch self {
        case .blockHeight, .nativeAmount: "only a proven confirmation or failure has one"
        case .replacingHash: "only a proven failure is replaced by another transaction"
        }
    }

    /// `value` checked, in its kept form (a hash is made canonical for its chain by
    /// `canonical(_:key:chain:)`, where the chain is known).
    /// - Throws: `LedgerError.invalidInput` naming `key`.
    func validated(_ value: String, key: String) throws -> String {
        switch self {
        case .blockHeight:
            guard let number = UInt64(value), String(number) == value else {
                throw LedgerError.invalidInput(field: key, reason: ExtraFactRule.wholeNumber)
            }
            guard number <= UInt64(Int64.max) else {
                throw LedgerError.invalidInput(field: key, reason: "\(value) is out of range")
            }
            return value
        case .nativeAmount:
            return try DecimalAmount(value, field: key).string
        case .replacingHash:
            return try TextField.identifier.validate(value, field: key)
        }
    }

    /// `value`, already `validated`, in its canonical form for a record of `chain`.
    /// - Throws: `LedgerError.invalidInput` naming `key` for a hash that is not one of `chain`.
    func canonical(_ value: String, key: String, chain: Chain) throws -> String {
        guard self == .replacingHash else { return value }
        do {
            return try chain.normalizedTxHash(value)
        } catch let error as LedgerError where error.code == .invalidInput {
            throw LedgerError.invalidInput(field: key, reason: error.reason ?? "", underlying: error)
        }
    }
}
