import Foundation

/// The long forms of one record for people: `show`'s lines and the one-line summary of what moved.
package enum RecordDetail {
    /// `key: value` lines for one record: its id, what moved, then every column of
    /// `RecordColumn.all` that has a value, in that order.
    package static func lines(_ r: TransactionRecord) -> String {
        let lines =
            [("id", r.id.rawValue), ("what", summary(r))]
            + RecordColumn.all.filter { $0.csv != "id" }.map { ($0.label, $0.text(r)) }
        return lines.compactMap { key, value in value.map { "\(key): \($0)\n" } }.joined()
    }

    /// What moved, in one line: `0.25 ETH to 0xfB69…d359`.
    package static func summary(_ r: TransactionRecord) -> String {
        switch r.details {
        case let .send(s): "\(s.amount) \(s.token.symbol) to \(HistoryText.truncated(s.toAddress))"
        case let .swap(s): "\(s.fromAmount) \(s.fromToken.symbol) -> \(s.toAmount) \(s.toToken.symbol) (\(s.provider))"
        case .signature: "\(r.method ?? "signature")"
        }
    }
}
