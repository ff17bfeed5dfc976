import TxLedger

/// Plain-text renderings of records for people.
enum RecordTable {
    /// One line per record: time (UTC), kind, status, chain, hash, what moved, fiat value.
    static func render(_ records: [TransactionRecord]) -> String {
        guard !records.isEmpty else { return "No transactions yet. Your sends and swaps will appear here.\n" }
        let rows = records.map { r in
            [ISO8601.string(from: r.timestamp), r.kind.rawValue, r.status.rawValue, r.chain.id,
             r.txHash.map(shortened) ?? r.id.rawValue.prefix(12) + "…", summary(r), r.fiatValue.map { "$\($0)" } ?? ""]
        }
        let header = ["TIME (UTC)", "KIND", "STATUS", "CHAIN", "HASH", "WHAT", "USD"]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max()! }
        return ([header] + rows).map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingTrailingSpaces() + "\n"
        }.joined()
    }

    /// `key: value` lines for one record.
    static func detail(_ r: TransactionRecord) -> String {
        var lines: [(String, String?)] = [
            ("id", r.id.rawValue), ("vault", r.vaultId), ("kind", r.kind.rawValue), ("status", r.status.rawValue),
            ("chain", r.chain.id), ("time", ISO8601.string(from: r.timestamp)), ("hash", r.txHash),
            ("explorer", r.explorerUrl), ("what", summary(r)), ("usd", r.fiatValue?.string), ("from", r.fromAddress),
            ("method", r.method), ("app", r.app.map { $0.domain ?? $0.uri ?? $0.scheme ?? "" }),
        ]
        switch r.details {
        case let .send(s): lines += [("to", s.toAddress), ("fee", s.feeEstimate?.string), ("memo", s.memo)]
        case let .swap(s): lines += [("provider", s.provider.name), ("route", s.route), ("min payout", s.minimumPayout?.string)]
        case let .signature(s): lines += [("message", s.message), ("signature", s.signature)]
        }
        lines += [("confirmed at", r.confirmedAt.map(ISO8601.string(from:))), ("failure", r.failureReason),
                  ("last checked", r.lastCheckedAt.map(ISO8601.string(from:))), ("note", r.note),
                  ("labels", r.labels.isEmpty ? nil : r.labels.joined(separator: ", ")), ("hidden", r.hidden ? "yes" : nil)]
        return lines.compactMap { key, value in value.map { "\(key): \($0)\n" } }.joined()
    }

    static func summary(_ r: TransactionRecord) -> String {
        switch r.details {
        case let .send(s): "\(s.amount) \(s.token.symbol) to \(shortened(s.toAddress))"
        case let .swap(s): "\(s.fromAmount) \(s.fromToken.symbol) -> \(s.toAmount) \(s.toToken.symbol) (\(s.provider))"
        case .signature: "\(r.method ?? "signature")"
        }
    }

    /// `0x1234…abcd`: the first 6 and last 4 characters of long hashes and addresses.
    static func shortened(_ text: String) -> String {
        text.count > 13 ? "\(text.prefix(6))…\(text.suffix(4))" : text
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
