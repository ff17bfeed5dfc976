/// How an extra fact's value is checked, and the form it is kept in (`RecordField.extraFact`).
/// An extra fact is an optional fact with no property of its own in `TransactionFacts`: it is
/// kept by key in `TransactionFacts.extras`, and carried, stored, shown and validated by its
/// entry in the field list alone.
enum ExtraFactRule: Sendable {
    /// A transaction hash of the record's chain, kept in the chain's canonical form; only a
    /// send or a swap has one.
    case transactionHash

    /// `value` checked and in its kept form.
    /// - Throws: `LedgerError.invalidInput` naming `key`.
    func validated(_ value: String, key: String, chain: Chain, kind: TransactionKind) throws -> String {
        switch self {
        case .transactionHash:
            guard kind != .signature else {
                throw LedgerError.invalidInput(field: key, reason: "only a send or a swap has it")
            }
            do {
                return try chain.normalizedTxHash(value)
            } catch let LedgerError.invalidInput(_, reason) {
                throw LedgerError.invalidInput(field: key, reason: reason)
            }
        }
    }
}
