import Foundation

/// The lines tax tools import (Specs/queries.md, "Tax tools"): a send is an amount sent, a swap
/// a trade (both sides), a failed transaction only its fee, a dropped one and a signature
/// request nothing. The fee is the fee paid where a receipt gave it, else a send's estimate, in
/// the chain's native asset.
enum TaxToolCSV {
    static let koinlyColumns = [
        "Date", "Sent Amount", "Sent Currency", "Received Amount", "Received Currency", "Fee Amount", "Fee Currency",
        "Net Worth Amount", "Net Worth Currency", "Label", "Description", "TxHash",
    ]
    static let coinTrackerColumns = [
        "Date", "Received Quantity", "Received Currency", "Sent Quantity", "Sent Currency", "Fee Amount",
        "Fee Currency", "Tag",
    ]

    /// What a line says: what left the wallet, what came in, and the fee.
    private struct Movement {
        var sent: (amount: String, currency: String)?
        var received: (amount: String, currency: String)?
        var fee: (amount: String, currency: String?)?
    }

    private static func movement(_ record: TransactionRecord) -> Movement? {
        var movement = Movement()
        // A failure inferred (dropped) or replaced was never mined: it moved and cost nothing.
        guard record.statusEvidence != .inference && record.replacedBy == nil else { return nil }
        func fee(_ estimate: DecimalAmount?) -> (String, String?)? {
            (record.feePaid ?? estimate).map { ($0.string, record.chain.nativeAsset) }
        }
        switch record.details {
        case .signature:
            return nil
        case let .send(send):
            movement.fee = fee(send.feeEstimate)
            guard record.status != .failed else { break }
            movement.sent = (send.amount.string, send.token.symbol)
        case let .swap(swap):
            movement.fee = fee(nil)
            guard record.status != .failed else { break }
            movement.sent = (swap.fromAmount.string, swap.fromToken.symbol)
            movement.received = (swap.toAmount.string, swap.toToken.symbol)
        }
        return movement.sent == nil && movement.fee == nil ? nil : movement
    }

    static func koinly(_ record: TransactionRecord) -> [String?]? {
        guard let movement = movement(record) else { return nil }
        let time = CivilTime(millis: record.timestamp.millis)
        let date = String(
            format: "%04d-%02d-%02d %02d:%02d UTC",
            time.year,
            time.month,
            time.day,
            time.hour,
            time.minute
        )
        let worth = movement.sent == nil ? nil : record.fiatValue?.string
        return [
            date, movement.sent?.amount, movement.sent?.currency, movement.received?.amount,
            movement.received?.currency,
            movement.fee?.amount, movement.fee?.currency, worth, worth == nil ? nil : "USD", nil, record.note,
            record.txHash,
        ]
    }

    static func coinTracker(_ record: TransactionRecord) -> [String?]? {
        guard let movement = movement(record) else { return nil }
        let time = CivilTime(millis: record.timestamp.millis)
        let date = String(
            format: "%02d/%02d/%04d %02d:%02d:%02d",
            time.month,
            time.day,
            time.year,
            time.hour,
            time.minute,
            time.second
        )
        return [
            date, movement.received?.amount, movement.received?.currency, movement.sent?.amount,
            movement.sent?.currency,
            movement.fee?.amount, movement.fee?.currency, nil,
        ]
    }
}
