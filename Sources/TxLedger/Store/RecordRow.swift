import Foundation
import GRDB

/// Maps a `RecordState` to the columns of the `record` table and back.
enum RecordRow {
    static let factColumns = [
        "id", "vault_id", "kind", "chain", "timestamp_ms", "tx_hash", "explorer_url", "fiat_value",
        "from_address", "app_id", "method",
        "to_address", "amount", "token_symbol", "token_contract", "token_decimals", "token_logo", "fee_estimate",
        "memo",
        "from_token_symbol", "from_token_contract", "from_token_decimals", "from_amount", "from_chain",
        "from_token_logo",
        "to_token_symbol", "to_token_contract", "to_token_decimals", "to_amount", "min_payout", "to_chain",
        "to_token_logo",
        "provider", "route", "message", "signature", "nonce", "facts_time", "facts_replica",
    ]

    static let registerColumns = [
        "pending_time", "pending_replica",
        "terminal_status", "confirmed_at_ms", "failure_reason", "terminal_time", "terminal_replica",
        "last_checked_at_ms",
        "note", "note_time", "note_replica",
        "labels", "labels_time", "labels_replica",
        "hidden", "hidden_time", "hidden_replica",
        "newer_fields",
    ]

    /// `SELECT` list that `decode` reads: the record and its app.
    /// The columns of `RecordValues`, in order.
    static let selection =
        ((factColumns + registerColumns).map { "record.\($0)" }
        + ["app.domain AS app_domain", "app.uri AS app_uri", "app.scheme AS app_scheme"]).joined(separator: ", ")
    static let source = "record LEFT JOIN app ON app.id = record.app_id"
    /// Joined to `source` by reads that must hide records erased by a vault clear.
    static let visibleSource = source + " LEFT JOIN vault ON vault.id = record.vault_id"
    /// The condition a visible record meets: its facts are later than its vault's watermark.
    static let isVisible =
        "(vault.cleared_time IS NULL OR (record.facts_time, record.facts_replica) > (vault.cleared_time, vault.cleared_replica))"

    static func factValues(_ facts: Register<TransactionFacts>, appID: Int64?) -> [DatabaseValue] {
        let f = facts.value
        var send: SendDetails?
        var swap: SwapDetails?
        var signature: SignatureDetails?
        switch f.details {
        case let .send(d): send = d
        case let .swap(d): swap = d
        case let .signature(d): signature = d
        }
        return [
            sql(f.id.rawValue), sql(f.vaultId), sql(f.kind.rawValue), sql(f.chain.id), sql(f.timestamp.millis),
            sql(f.txHash),
            sql(f.explorerUrl), sql(f.fiatValue?.string), sql(f.fromAddress), sql(appID), sql(f.method),
            sql(send?.toAddress), sql(send?.amount.string), sql(send?.token.symbol), sql(send?.token.contract),
            sql(send?.token.decimals),
            sql(send?.tokenLogo), sql(send?.feeEstimate?.string), sql(send?.memo),
            sql(swap?.fromToken.symbol), sql(swap?.fromToken.contract), sql(swap?.fromToken.decimals),
            sql(swap?.fromAmount.string),
            sql(swap?.fromChain.id), sql(swap?.fromTokenLogo),
            sql(swap?.toToken.symbol), sql(swap?.toToken.contract), sql(swap?.toToken.decimals),
            sql(swap?.toAmount.string),
            sql(swap?.minimumPayout?.string), sql(swap?.toChain.id), sql(swap?.toTokenLogo),
            sql(swap?.provider.name), sql(swap?.route), sql(signature?.message), sql(signature?.signature),
            sql(f.nonce.map { Int64($0) }),
            sql(facts.stamp.time), sql(facts.stamp.replica.rawValue),
        ]
    }

    static func registerValues(_ s: RecordState) -> [DatabaseValue] {
        let terminal = s.status.terminal
        return [
            sql(s.status.pending?.time), sql(s.status.pending?.replica.rawValue),
            sql(terminal?.value.status.rawValue), sql(terminal?.value.confirmedAt?.millis),
            sql(terminal?.value.failureReason),
            sql(terminal?.stamp.time), sql(terminal?.stamp.replica.rawValue),
            sql(s.lastCheckedAt?.millis),
            sql(s.note?.value), sql(s.note?.stamp.time), sql(s.note?.stamp.replica.rawValue),
            sql(s.labels.map { encodeLabels($0.value) }), sql(s.labels?.stamp.time),
            sql(s.labels?.stamp.replica.rawValue),
            sql(s.hidden?.value), sql(s.hidden?.stamp.time), sql(s.hidden?.stamp.replica.rawValue),
            sql(newerFieldsBlob(s.newerFields)),
        ]
    }

    /// The `newer_fields` column: their stored form, NULL when there are none.
    static func newerFieldsBlob(_ fields: NewerFields) -> Data? {
        fields.isEmpty ? nil : Data(fields.storedBytes)
    }

    /// A column value (generic, so building a row boxes nothing).
    private static func sql<T: DatabaseValueConvertible>(_ value: T?) -> DatabaseValue {
        value?.databaseValue ?? .null
    }

    /// The record's values as a bundle carries them (bundle-format.md): every fact and register
    /// column, with the app's `app_domain`, `app_uri` and `app_scheme` (frames leave out `id`,
    /// derived from the facts, and `app_id`, a row id of this file).
    static func portableValues(_ state: RecordState) -> RecordValues {
        var values = RecordValues()
        for (position, value) in (factValues(state.facts, appID: nil) + registerValues(state)).enumerated() {
            values[position: position] = value
        }
        let app = state.facts.value.app
        values["app_domain"] = app?.domain.databaseValue ?? .null
        values["app_uri"] = app?.uri.databaseValue ?? .null
        values["app_scheme"] = app?.scheme.databaseValue ?? .null
        return values
    }

    /// Reads a row selected with `selection` from `source`.
    /// - Throws: `LedgerError.unreadableDatabase` if the row does not hold a valid record.
    static func decode(_ row: Row, path: String) throws -> RecordState {
        let values = RecordValues(row)
        do {
            return try validated(values)
        } catch let error as LedgerError {
            let id = (try? values.value("id", as: String.self)) ?? "?"
            throw LedgerError.unreadableDatabase(
                path: path,
                reason: "record \(id) is malformed (\(error.localizedDescription))"
            )
        }
    }

    /// The record a row holds, validated as input is (the id, when the row has one, must be
    /// the one its facts derive).
    /// - Throws: `LedgerError.invalidInput` naming the first invalid column.
    static func validated(_ row: RecordValues) throws -> RecordState {
        func amount(_ column: String) throws -> DecimalAmount? {
            try row.value(column, as: String.self).map { try DecimalAmount($0, field: column) }
        }
        func token(_ prefix: String) throws -> Token {
            try Token(
                symbol: try row.value("\(prefix)_symbol") ?? "",
                contract: try row.value("\(prefix)_contract"),
                decimals: try row.value("\(prefix)_decimals"),
                field: prefix
            )
        }
        func instant(_ column: String) throws -> Date? {
            try row.value(column, as: Int64.self).map { millis in
                guard (0...Date.maxMillis).contains(millis) else {
                    throw LedgerError.invalidInput(field: column, reason: "must lie between 1970 and the year 9999")
                }
                return Date(millis: millis)
            }
        }
        func nonce(_ value: Int64?) throws -> UInt64? {
            try value.map { value in
                guard value >= 0 else { throw LedgerError.invalidInput(field: "nonce", reason: "must not be negative") }
                return UInt64(value)
            }
        }
        func required<T>(_ value: T?, _ column: String) throws -> T {
            guard let value else { throw LedgerError.invalidInput(field: column, reason: "is missing") }
            return value
        }
        let chain = try Chain(parsing: try required(try row.value("chain"), "chain"))
        let details: TransactionDetails
        switch try required(try row.value("kind"), "kind") as String {
        case TransactionKind.send.rawValue:
            details = .send(
                try SendDetails(
                    toAddress: try required(try row.value("to_address"), "to_address"),
                    amount: try required(amount("amount"), "amount"),
                    token: try token("token"),
                    tokenLogo: try row.value("token_logo"),
                    feeEstimate: try amount("fee_estimate"),
                    memo: try row.value("memo")
                )
            )
        case TransactionKind.swap.rawValue:
            details = .swap(
                try SwapDetails(
                    fromToken: try token("from_token"),
                    fromAmount: try required(amount("from_amount"), "from_amount"),
                    fromChain: try Chain(parsing: try required(try row.value("from_chain"), "from_chain")),
                    fromTokenLogo: try row.value("from_token_logo"),
                    toToken: try token("to_token"),
                    toAmount: try required(amount("to_amount"), "to_amount"),
                    minimumPayout: try amount("min_payout"),
                    toChain: try Chain(parsing: try required(try row.value("to_chain"), "to_chain")),
                    toTokenLogo: try row.value("to_token_logo"),
                    provider: try SwapProvider(try required(try row.value("provider"), "provider")),
                    route: try row.value("route")
                )
            )
        case TransactionKind.signature.rawValue:
            details = .signature(
                try SignatureDetails(
                    message: try required(try row.value("message"), "message"),
                    signature: try row.value("signature")
                )
            )
        case let other:
            throw LedgerError.invalidInput(field: "kind", reason: "'\(other)' is not send, swap or signature")
        }
        let facts = try TransactionFacts(
            vaultId: try required(try row.value("vault_id"), "vault_id"),
            chain: chain,
            timestamp: Date(millis: try required(try row.value("timestamp_ms"), "timestamp_ms")),
            txHash: try row.value("tx_hash"),
            explorerUrl: try row.value("explorer_url"),
            fiatValue: try amount("fiat_value"),
            fromAddress: try row.value("from_address"),
            nonce: try nonce(try row.value("nonce")),
            app: try AppMetadata(
                domain: nonEmpty(try row.value("app_domain")),
                uri: nonEmpty(try row.value("app_uri")),
                scheme: nonEmpty(try row.value("app_scheme"))
            ),
            method: try row.value("method"),
            details: details
        )
        if let id: String = try row.value("id"), id != facts.id.rawValue {
            throw LedgerError.invalidInput(field: "id", reason: "does not match the record's facts")
        }

        var terminal: Register<TerminalOutcome>?
        if let status: String = try row.value("terminal_status"), let stamp = try stamp(row, "terminal") {
            let status = try TransactionStatus(parsing: status)
            guard status.isTerminal else {
                throw LedgerError.invalidInput(
                    field: "terminal_status",
                    reason: "'\(status.rawValue)' is not confirmed or failed"
                )
            }
            // The same checks as a local status update: metadata fits the status and its limits.
            let update = try StatusUpdate(
                status,
                confirmedAt: try instant("confirmed_at_ms"),
                failureReason: try row.value("failure_reason")
            )
            terminal = Register(
                TerminalOutcome(status: status, confirmedAt: update.confirmedAt, failureReason: update.failureReason),
                stamp: stamp
            )
        }
        let state = RecordState(
            facts: Register(facts, stamp: try required(stamp(row, "facts"), "facts stamp")),
            status: StatusRegister(pending: try stamp(row, "pending"), terminal: terminal),
            lastCheckedAt: try instant("last_checked_at_ms"),
            note: try stamp(row, "note").map {
                Register(try TextField.note.validate(try row.value("note"), field: "note"), stamp: $0)
            },
            labels: try stamp(row, "labels").map {
                Register(try TransactionRecord.normalizedLabels(try decodeLabels(try row.value("labels"))), stamp: $0)
            },
            hidden: try stamp(row, "hidden").map { Register(try flag(try row.value("hidden"), "hidden"), stamp: $0) }
        )
        guard let newer = try row.value("newer_fields", as: Data.self) else { return state }
        return try state.attaching(try NewerFields(storedBytes: Array(newer)))
    }

    private static func stamp(_ row: RecordValues, _ register: String) throws -> Stamp? {
        guard let time: Int64 = try row.value("\(register)_time"),
            let replica: Int64 = try row.value("\(register)_replica"), replica >= 0
        else {
            return nil
        }
        return try Stamp.received(time: time, replica: ReplicaID(rawValue: replica), field: "\(register) stamp")
    }

    /// A 0 or 1 column (a missing one is 0).
    private static func flag(_ value: Int64?, _ column: String) throws -> Bool {
        switch value ?? 0 {
        case 0: return false
        case 1: return true
        case let other: throw LedgerError.invalidInput(field: column, reason: "is \(other), not 0 or 1")
        }
    }

    private static func nonEmpty(_ value: String?) -> String? {
        value?.isEmpty == false ? value : nil
    }

    static func encodeLabels(_ labels: [String]) -> String {
        // A JSON array of strings; encoding [String] cannot fail.
        String(decoding: try! JSONEncoder().encode(labels), as: UTF8.self)
    }

    private static func decodeLabels(_ text: String?) throws -> [String] {
        guard let data = text?.data(using: .utf8), let labels = try? JSONDecoder().decode([String].self, from: data)
        else {
            throw LedgerError.invalidInput(field: "labels", reason: "is not a JSON array of strings")
        }
        return labels
    }
}
