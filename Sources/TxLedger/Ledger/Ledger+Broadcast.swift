import Foundation
import TxLedgerCore

/// An amount as a wallet has it: decimal text, or the integer base units a chain stores with
/// the token's decimals.
public enum AmountInput: Sendable, Hashable {
    /// `"0.25"`
    case decimal(String)
    /// `("250000000000000000", decimals: 18)` is 0.250000000000000000.
    case baseUnits(String, decimals: Int)

    func amount(field: String) throws -> DecimalAmount {
        switch self {
        case let .decimal(text): try DecimalAmount(text, field: field)
        case let .baseUnits(units, decimals): try DecimalAmount(baseUnits: units, decimals: decimals, field: field)
        }
    }
}

extension Ledger {
    /// Records a send right after the wallet broadcast it, from plain values: one call instead
    /// of a chain of initializers. It is `record(_:)` underneath: idempotent, validated as
    /// every input is (Specs/schema.md), stamped now (or at `timestamp`).
    ///
    /// ```swift
    /// try await ledger.recordSend(vault: "main", chain: "eip155:1", hash: txHash, from: sender, to: recipient,
    ///                             amount: .baseUnits("250000000000000000", decimals: 18), token: "ETH", nonce: 7)
    /// ```
    /// - Parameters:
    ///   - vault: the vault (the wallet account) it belongs to.
    ///   - chain: any spelling `Chain(parsing:)` accepts (`ethereum`, `eip155:1`, `0x1`).
    ///   - hash: the transaction hash, in any case; stored in the chain's canonical form.
    ///   - from: the sender's address.
    ///   - to: the recipient's address.
    ///   - amount: the amount sent, as decimal text or in base units.
    ///   - token: the token's symbol.
    ///   - tokenContract: the token's contract (none for the chain's native coin).
    ///   - tokenDecimals: the token's decimals; taken from `amount` when it is in base units.
    ///   - fee: the fee estimate, a decimal in the chain's native coin.
    ///   - fiatValue: the USD value at broadcast, a decimal.
    ///   - memo: the memo or message sent with it.
    ///   - nonce: the sender's nonce (EVM), which lets status checks tell a dropped transaction.
    ///   - timestamp: when it was broadcast; now when absent.
    /// - Returns: the record as stored, and whether it was new.
    /// - Throws: `LedgerError.invalidInput` naming the first value that is not acceptable.
    @discardableResult
    public func recordSend(
        vault: String,
        chain: String,
        hash: String,
        from: String? = nil,
        to: String,
        amount: AmountInput,
        token: String,
        tokenContract: String? = nil,
        tokenDecimals: Int? = nil,
        fee: String? = nil,
        fiatValue: String? = nil,
        memo: String? = nil,
        nonce: UInt64? = nil,
        timestamp: Date? = nil
    ) async throws -> (record: TransactionRecord, outcome: RecordOutcome) {
        var decimals = tokenDecimals
        if case let .baseUnits(_, unitDecimals) = amount { decimals = decimals ?? unitDecimals }
        let details = try SendDetails(
            toAddress: to,
            amount: try amount.amount(field: "amount"),
            token: try Token(symbol: token, contract: tokenContract, decimals: decimals),
            feeEstimate: try fee.map { try DecimalAmount($0, field: "fee") },
            memo: memo
        )
        let facts = try TransactionFacts(
            vaultId: vault,
            chain: try Chain(parsing: chain),
            timestamp: timestamp ?? options.wallClock(),
            txHash: hash,
            fiatValue: try fiatValue.map { try DecimalAmount($0, field: "fiatValue") },
            fromAddress: from,
            nonce: nonce,
            details: .send(details)
        )
        return try await record(try TransactionRecord(facts: facts))
    }
}
