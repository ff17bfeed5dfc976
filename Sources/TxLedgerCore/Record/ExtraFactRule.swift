/// How an extra fact's value is checked, and the form it is kept in (`RecordField.extraFact`).
/// An extra fact is an optional fact kept by key in `TransactionFacts.extras`, as text, and
/// carried, stored, shown and validated by its entry in the field list alone; a typed one
/// (`nonce`) has an accessor of its type too, and the frame and the JSON write it as its
/// field's encoding says (an integer field as a number).
enum ExtraFactRule: Sendable {
    /// An EVM sender's nonce: a whole number from 0 to 2^63 - 1, in decimal; only a send or a
    /// swap on a chain of the `evm` family has one.
    case evmNonce
    /// A transaction hash of the record's chain, kept in the chain's canonical form; only a
    /// send or a swap has one.
    case transactionHash
    /// The outputs a bitcoin-like transaction spends, `TXID:VOUT`, comma-separated; kept with
    /// each txid in lower case, without duplicates, sorted. Only a send or a swap on a chain of
    /// the `utxo` family has them.
    case outpoints

    /// The most outputs `outpoints` holds.
    static let maxOutpoints = 1000

    /// `value` checked and in its kept form.
    /// - Throws: `LedgerError.invalidInput` naming `key`.
    package func validated(_ value: String, key: String, chain: Chain, kind: TransactionKind) throws -> String {
        guard kind != .signature else {
            throw LedgerError.invalidInput(field: key, reason: "only a send or a swap has it")
        }
        switch self {
        case .evmNonce:
            guard chain.family == .evm else {
                throw LedgerError.invalidInput(field: key, reason: "only an EVM send or swap has a nonce")
            }
            guard let nonce = UInt64(value), nonce <= UInt64(Int64.max), String(nonce) == value else {
                throw LedgerError.invalidInput(field: key, reason: Self.wholeNumber)
            }
            return value
        case .transactionHash:
            do {
                return try chain.normalizedTxHash(value)
            } catch let error as LedgerError where error.code == .invalidInput {
                throw LedgerError.invalidInput(field: key, reason: error.reason ?? "", underlying: error)
            }
        case .outpoints:
            guard chain.family == .utxo else {
                throw LedgerError.invalidInput(field: key, reason: "only a bitcoin-like transaction spends outputs")
            }
            let items = value.split(separator: ",", omittingEmptySubsequences: false)
            guard items.count <= Self.maxOutpoints else {
                throw LedgerError.invalidInput(
                    field: key,
                    reason: "\(items.count) outputs; the limit is \(Self.maxOutpoints)"
                )
            }
            let outpoints = try items.map { item in
                let parts = item.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count == 2, parts[0].count == 64, parts[0].allSatisfy(\.isHexDigit),
                    let vout = UInt32(parts[1]), String(vout) == parts[1]
                else {
                    throw LedgerError.invalidInput(
                        field: key,
                        reason: "'\(item.prefix(80))' is not TXID:VOUT (64 hex digits, an output number)"
                    )
                }
                return "\(parts[0].lowercased()):\(vout)"
            }
            return Set(outpoints).sorted().joined(separator: ",")
        }
    }

    /// What an integer fact must be.
    static let wholeNumber = "must be a whole number from 0 to 2^63 - 1"
}
