/// The CSV of a history (RFC 4180): one header line, then one line per record, fields separated
/// by commas, lines ended by CRLF; TxLedger's own columns, which `Specs/queries.md` defines.
package enum HistoryCSV {
    static let columns =
        [
            "date", "vault", "type", "status", "chain", "tx_hash", "from", "to", "amount", "token", "fee", "fiat_value",
            "sold_amount", "sold_token", "sold_chain", "bought_amount", "bought_token", "bought_chain",
            "provider", "explorer_url", "confirmed_at", "failure_reason", "note", "labels", "id", "block_number",
            "fee_paid", "replaced_by", "status_evidence",
        ] + RecordField.extraFacts.map(\.name)

    static func fields(_ r: TransactionRecord) -> [String?] {
        var send: SendDetails?
        var swap: SwapDetails?
        switch r.details {
        case let .send(details): send = details
        case let .swap(details): swap = details
        case .signature: break
        }
        let to: String? = send?.toAddress
        return [
            ISO8601.string(from: r.timestamp), r.vaultId, r.kind.rawValue, r.status.rawValue, r.chain.id, r.txHash,
            r.fromAddress, to, send?.amount.string, send?.token.symbol, send?.feeEstimate?.string, r.fiatValue?.string,
            swap?.fromAmount.string, swap?.fromToken.symbol, swap?.fromChain.id,
            swap?.toAmount.string, swap?.toToken.symbol, swap?.toChain.id,
            swap?.provider.name, r.explorerUrl, r.confirmedAt.map(ISO8601.string(from:)), r.failureReason,
            r.note, r.labels.isEmpty ? nil : r.labels.joined(separator: "; "), r.id.rawValue,
            r.blockNumber.map { String($0) }, r.feePaid?.string, r.replacedBy, r.statusEvidence?.rawValue,
        ] + RecordField.extraFacts.map { r.facts.extras[$0.key] }
    }

    /// One CSV line of `fields` (absent ones empty), CRLF-ended.
    package static func line(_ fields: [String?]) -> String {
        fields.map { field($0 ?? "") }.joined(separator: ",") + "\r\n"
    }

    /// A field quoted when it holds a comma, a quote or a line break (quotes doubled). Text
    /// that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or CR)
    /// gets a leading `'` first; no ledger-made field starts so, only free text can.
    static func field(_ text: String) -> String {
        var text = text
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) {
            text = "'" + text
        }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
