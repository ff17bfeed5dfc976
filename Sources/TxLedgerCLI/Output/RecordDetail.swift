import TxLedger

/// The long forms of one record for people: `show`'s lines and the one-line summary of what moved.
enum RecordDetail {
    /// `key: value` lines for one record.
    static func lines(_ r: TransactionRecord) -> String {
        var lines: [(String, String?)] = [
            ("id", r.id.rawValue), ("vault", r.vaultId), ("kind", r.kind.rawValue), ("status", r.status.rawValue),
            ("chain", r.chain.id), ("time", ISO8601.string(from: r.timestamp)), ("hash", r.txHash),
            ("explorer", r.explorerUrl), ("what", summary(r)), ("usd", r.fiatValue?.string), ("from", r.fromAddress),
            ("method", r.method), ("app", r.app.map { HistoryText.appLabel($0) }),
        ]
        lines += TransactionFacts.extraKeys.map { ($0, r.facts.extras[$0]) }
        switch r.details {
        case let .send(s): lines += [("to", s.toAddress), ("fee", s.feeEstimate?.string), ("memo", s.memo)]
        case let .swap(s):
            lines += [("provider", s.provider.name), ("route", s.route), ("min payout", s.minimumPayout?.string)]
        case let .signature(s): lines += [("message", s.message), ("signature", s.signature)]
        }
        lines += [
            ("confirmed at", r.confirmedAt.map(ISO8601.string(from:))), ("failure", r.failureReason),
            ("evidence", r.statusEvidence?.rawValue), ("block", r.blockNumber.map { String($0) }),
            ("fee paid", r.feePaid?.string), ("replaced by", r.replacedBy),
            ("last checked", r.lastCheckedAt.map(ISO8601.string(from:))), ("note", r.note),
            ("labels", r.labels.isEmpty ? nil : r.labels.joined(separator: ", ")), ("hidden", r.hidden ? "yes" : nil),
        ]
        return lines.compactMap { key, value in value.map { "\(key): \($0)\n" } }.joined()
    }

    static func summary(_ r: TransactionRecord) -> String {
        switch r.details {
        case let .send(s): "\(s.amount) \(s.token.symbol) to \(HistoryText.truncated(s.toAddress))"
        case let .swap(s): "\(s.fromAmount) \(s.fromToken.symbol) -> \(s.toAmount) \(s.toToken.symbol) (\(s.provider))"
        case .signature: "\(r.method ?? "signature")"
        }
    }
}
