import Foundation

/// One thing a record shows to people and spreadsheets: a column of the CSV export
/// (Specs/queries.md, "CSV export") and a line of `txledger show` (Specs/cli.md), with the
/// record fields it shows. `all` is the one list both derive from; a field that a record
/// carries and that no column shows fails `RecordColumnTests`, which also checks that the JSON
/// shape and the frame show the same fields.
package struct RecordColumn: Sendable {
    /// The CSV header of the column.
    package let csv: String
    /// The `show` line's key.
    package let label: String
    /// The record fields whose values the column shows.
    package let fields: [RecordField]
    /// The column's text for a record, or `nil` when the record has no value for it.
    package let text: @Sendable (TransactionRecord) -> String?

    init(
        _ csv: String,
        _ label: String,
        _ fields: [RecordField],
        text: @escaping @Sendable (TransactionRecord) -> String?
    ) {
        self.csv = csv
        self.label = label
        self.fields = fields
        self.text = text
    }

    /// The column of a field kept by key (a status detail, an extra fact): its spec name, its
    /// words, its text as kept.
    private static func keyed(
        _ field: RecordField,
        _ values: @escaping @Sendable (TransactionRecord) -> [String: String]
    ) -> RecordColumn {
        RecordColumn(field.name, field.words, [field]) { values($0)[field.key] }
    }

    /// Every column, in the CSV export's order: the columns of the first exports first (their
    /// places never change; the status details among them), then the extra facts, then the
    /// rest of the record's fields.
    package static let all: [RecordColumn] =
        [
            RecordColumn("date", "time", [.timestampMs]) { ISO8601.string(from: $0.timestamp) },
            RecordColumn("vault", "vault", []) { $0.vaultId },
            RecordColumn("type", "kind", [.kind]) { $0.kind.rawValue },
            RecordColumn("status", "status", [.terminalStatus]) { $0.status.rawValue },
            RecordColumn("chain", "chain", [.chain]) { $0.chain.id },
            RecordColumn("tx_hash", "hash", [.txHash]) { $0.txHash },
            RecordColumn("from", "from", [.fromAddress]) { $0.fromAddress },
            RecordColumn("to", "to", [.toAddress]) { $0.send?.toAddress },
            RecordColumn("amount", "amount", [.amount]) { $0.send?.amount.string },
            RecordColumn("token", "token", [.tokenSymbol]) { $0.send?.token.symbol },
            RecordColumn("fee", "fee", [.feeEstimate]) { $0.send?.feeEstimate?.string },
            RecordColumn("fiat_value", "usd", [.fiatValue]) { $0.fiatValue?.string },
            RecordColumn("sold_amount", "sold amount", [.fromAmount]) { $0.swap?.fromAmount.string },
            RecordColumn("sold_token", "sold token", [.fromTokenSymbol]) { $0.swap?.fromToken.symbol },
            RecordColumn("sold_chain", "sold chain", [.fromChain]) { $0.swap?.fromChain.id },
            RecordColumn("bought_amount", "bought amount", [.toAmount]) { $0.swap?.toAmount.string },
            RecordColumn("bought_token", "bought token", [.toTokenSymbol]) { $0.swap?.toToken.symbol },
            RecordColumn("bought_chain", "bought chain", [.toChain]) { $0.swap?.toChain.id },
            RecordColumn("provider", "provider", [.provider]) { $0.swap?.provider.name },
            RecordColumn("explorer_url", "explorer", [.explorerUrl]) { $0.explorerUrl },
            RecordColumn("confirmed_at", "confirmed at", [.confirmedAtMs]) {
                $0.confirmedAt.map(ISO8601.string(from:))
            },
            RecordColumn("failure_reason", "failure", [.failureReason, .inferredReason]) { $0.failureReason },
            RecordColumn("note", "note", [.note]) { $0.note },
            RecordColumn("labels", "labels", [.labels]) { $0.labels.isEmpty ? nil : $0.labels.joined(separator: "; ") },
            RecordColumn("id", "id", []) { $0.id.rawValue },
        ]
        + RecordField.statusDetails.map { field in keyed(field) { $0.statusUpdate.details } }
        + [RecordColumn("status_evidence", "evidence", []) { $0.statusEvidence?.rawValue }]
        + RecordField.extraFacts.map { field in keyed(field) { $0.facts.extras } }
        + [
            RecordColumn("method", "method", [.method]) { $0.method },
            RecordColumn("app_domain", "app domain", [.appDomain]) { $0.app?.domain },
            RecordColumn("app_uri", "app uri", [.appUri]) { $0.app?.uri },
            RecordColumn("app_scheme", "app scheme", [.appScheme]) { $0.app?.scheme },
            RecordColumn("token_contract", "token contract", [.tokenContract]) { $0.send?.token.contract },
            RecordColumn("token_decimals", "token decimals", [.tokenDecimals]) {
                $0.send?.token.decimals.map { String($0) }
            },
            RecordColumn("token_logo", "token logo", [.tokenLogo]) { $0.send?.tokenLogo },
            RecordColumn("memo", "memo", [.memo]) { $0.send?.memo },
            RecordColumn("sold_token_contract", "sold token contract", [.fromTokenContract]) {
                $0.swap?.fromToken.contract
            },
            RecordColumn("sold_token_decimals", "sold token decimals", [.fromTokenDecimals]) {
                $0.swap?.fromToken.decimals.map { String($0) }
            },
            RecordColumn("sold_token_logo", "sold token logo", [.fromTokenLogo]) { $0.swap?.fromTokenLogo },
            RecordColumn("bought_token_contract", "bought token contract", [.toTokenContract]) {
                $0.swap?.toToken.contract
            },
            RecordColumn("bought_token_decimals", "bought token decimals", [.toTokenDecimals]) {
                $0.swap?.toToken.decimals.map { String($0) }
            },
            RecordColumn("bought_token_logo", "bought token logo", [.toTokenLogo]) { $0.swap?.toTokenLogo },
            RecordColumn("minimum_payout", "min payout", [.minPayout]) { $0.swap?.minimumPayout?.string },
            RecordColumn("route", "route", [.route]) { $0.swap?.route },
            RecordColumn("message", "message", [.message]) { $0.signatureDetails?.message },
            RecordColumn("signature", "signature", [.signature]) { $0.signatureDetails?.signature },
            RecordColumn("last_checked_at", "last checked", [.lastCheckedAtMs]) {
                $0.lastCheckedAt.map(ISO8601.string(from:))
            },
            RecordColumn("hidden", "hidden", [.hidden]) { $0.hidden ? "yes" : nil },
            RecordColumn("status_checked_on_chain", "checked on chain", [.terminalChecked]) {
                $0.statusCheckedOnChain ? "yes" : nil
            },
            RecordColumn("status_dispute", "disputed", [.rivalStatus, .rivalBlockNumber, .rivalFeePaid]) {
                $0.statusDispute.map(HistoryText.dispute)
            },
        ]
}

extension TransactionRecord {
    /// A send's details, or `nil`.
    var send: SendDetails? {
        if case let .send(send) = facts.details { send } else { nil }
    }

    /// A swap's details, or `nil`.
    var swap: SwapDetails? {
        if case let .swap(swap) = facts.details { swap } else { nil }
    }

    /// A signature request's details, or `nil`.
    var signatureDetails: SignatureDetails? {
        if case let .signature(signature) = facts.details { signature } else { nil }
    }
}
