import Foundation

/// The library's JSON shape of a record: one flat object with camelCase fields (as in
/// vault-transaction-history.md), instants as ISO 8601 UTC strings, amounts as decimal
/// strings, absent fields omitted. `Specs/schema.md` lists every field; an extra fact or a
/// status detail is a string (an integer field's a number) under its key
/// (`TransactionFacts.extraKeys`, `StatusUpdate.detailKeys`). Decoding validates exactly as the
/// Swift initializers do; an `id`, if present, must be the derived one.
extension TransactionRecord: Codable {
    enum Key: String, CodingKey {
        case id, vaultId, kind, status, chain, timestamp, txHash, explorerUrl, fiatValue, fromAddress, app, method
        case toAddress, amount, token, tokenLogo, feeEstimate, memo
        case fromToken, fromAmount, fromChain, fromTokenLogo, toToken, toAmount, minimumPayout, toChain, toTokenLogo
        case provider, route, message, signature
        case confirmedAt, failureReason, statusEvidence, statusCheckedOnChain, statusDispute, lastCheckedAt, note,
            labels
        case hidden
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        let f = facts
        try c.encode(f.id.rawValue, forKey: .id)
        try c.encode(f.vaultId, forKey: .vaultId)
        try c.encode(f.kind, forKey: .kind)
        try c.encode(status, forKey: .status)
        try c.encode(f.chain.id, forKey: .chain)
        try c.encode(ISO8601.string(from: f.timestamp), forKey: .timestamp)
        try c.encodeIfPresent(f.txHash, forKey: .txHash)
        try c.encodeIfPresent(f.explorerUrl, forKey: .explorerUrl)
        try c.encodeIfPresent(f.fiatValue?.string, forKey: .fiatValue)
        try c.encodeIfPresent(f.fromAddress, forKey: .fromAddress)
        try c.encodeIfPresent(f.app.map(AppJSON.init), forKey: .app)
        try c.encodeIfPresent(f.method, forKey: .method)
        switch f.details {
        case let .send(send):
            try c.encode(send.toAddress, forKey: .toAddress)
            try c.encode(send.amount.string, forKey: .amount)
            try c.encode(send.token, forKey: .token)
            try c.encodeIfPresent(send.tokenLogo, forKey: .tokenLogo)
            try c.encodeIfPresent(send.feeEstimate?.string, forKey: .feeEstimate)
            try c.encodeIfPresent(send.memo, forKey: .memo)
        case let .swap(swap):
            try c.encode(swap.fromToken, forKey: .fromToken)
            try c.encode(swap.fromAmount.string, forKey: .fromAmount)
            try c.encode(swap.fromChain.id, forKey: .fromChain)
            try c.encodeIfPresent(swap.fromTokenLogo, forKey: .fromTokenLogo)
            try c.encode(swap.toToken, forKey: .toToken)
            try c.encode(swap.toAmount.string, forKey: .toAmount)
            try c.encodeIfPresent(swap.minimumPayout?.string, forKey: .minimumPayout)
            try c.encode(swap.toChain.id, forKey: .toChain)
            try c.encodeIfPresent(swap.toTokenLogo, forKey: .toTokenLogo)
            try c.encode(swap.provider.name, forKey: .provider)
            try c.encodeIfPresent(swap.route, forKey: .route)
        case let .signature(signature):
            try c.encode(signature.message, forKey: .message)
            try c.encodeIfPresent(signature.signature, forKey: .signature)
        }
        try c.encodeIfPresent(confirmedAt.map(ISO8601.string(from:)), forKey: .confirmedAt)
        try c.encodeIfPresent(failureReason, forKey: .failureReason)
        try c.encodeIfPresent(statusEvidence, forKey: .statusEvidence)
        if statusCheckedOnChain { try c.encode(true, forKey: .statusCheckedOnChain) }
        try c.encodeIfPresent(statusDispute, forKey: .statusDispute)
        try c.encodeIfPresent(lastCheckedAt.map(ISO8601.string(from:)), forKey: .lastCheckedAt)
        try c.encodeIfPresent(note, forKey: .note)
        if !labels.isEmpty { try c.encode(labels, forKey: .labels) }
        if hidden { try c.encode(true, forKey: .hidden) }
        try RecordField.encode(RecordField.statusDetails, statusUpdate.details, to: encoder)
        try RecordField.encode(RecordField.extraFacts, f.extras, to: encoder)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        func required(_ key: Key) throws -> String {
            guard let value = try c.decodeIfPresent(String.self, forKey: key) else {
                throw LedgerError.invalidInput(field: key.rawValue, reason: "is required")
            }
            return value
        }
        func string(_ key: Key) throws -> String? { try c.decodeIfPresent(String.self, forKey: key) }
        func amount(_ key: Key) throws -> DecimalAmount? {
            try string(key).map { try DecimalAmount($0, field: key.rawValue) }
        }
        func date(_ key: Key) throws -> Date? {
            try string(key).map { try ISO8601.date(from: $0, field: key.rawValue) }
        }
        func token(_ key: Key) throws -> Token {
            guard try c.contains(key) && !c.decodeNil(forKey: key) else {
                throw LedgerError.invalidInput(
                    field: key.rawValue,
                    reason: "is required (an object with symbol, contract, decimals)"
                )
            }
            return try Token(from: try c.superDecoder(forKey: key), field: key.rawValue)
        }

        let chain = try Chain(parsing: try required(.chain))
        let kind = try TransactionKind(rawValue: try required(.kind)).orThrow(
            .invalidInput(field: "kind", reason: "must be send, swap or signature")
        )
        let details: TransactionDetails
        switch kind {
        case .send:
            details = .send(
                try SendDetails(
                    toAddress: try required(.toAddress),
                    amount: try DecimalAmount(try required(.amount), field: "amount"),
                    token: try token(.token),
                    tokenLogo: try string(.tokenLogo),
                    feeEstimate: try amount(.feeEstimate),
                    memo: try string(.memo)
                )
            )
        case .swap:
            details = .swap(
                try SwapDetails(
                    fromToken: try token(.fromToken),
                    fromAmount: try DecimalAmount(try required(.fromAmount), field: "fromAmount"),
                    fromChain: try string(.fromChain).map(Chain.init(parsing:)) ?? chain,
                    fromTokenLogo: try string(.fromTokenLogo),
                    toToken: try token(.toToken),
                    toAmount: try DecimalAmount(try required(.toAmount), field: "toAmount"),
                    minimumPayout: try amount(.minimumPayout),
                    toChain: try string(.toChain).map(Chain.init(parsing:)),
                    toTokenLogo: try string(.toTokenLogo),
                    provider: try SwapProvider(try required(.provider)),
                    route: try string(.route)
                )
            )
        case .signature:
            details = .signature(
                try SignatureDetails(message: try required(.message), signature: try string(.signature))
            )
        }
        let facts = try TransactionFacts(
            vaultId: try required(.vaultId),
            chain: chain,
            timestamp: try date(.timestamp).orThrow(
                .invalidInput(field: "timestamp", reason: "is required")
            ),
            txHash: try string(.txHash),
            explorerUrl: try string(.explorerUrl),
            fiatValue: try amount(.fiatValue),
            fromAddress: try string(.fromAddress),
            app: try c.decodeIfPresent(AppJSON.self, forKey: .app).flatMap {
                try AppMetadata(domain: $0.domain, uri: $0.uri, scheme: $0.scheme)
            },
            method: try string(.method),
            extras: try RecordField.decode(RecordField.extraFacts, from: decoder),
            details: details
        )
        if let id = try string(.id), TransactionID(id) != facts.id {
            throw LedgerError.invalidInput(
                field: "id",
                reason: "'\(id.prefix(40))' is not the id of this transaction (\(facts.id)); omit it to have it derived"
            )
        }
        let status = try string(.status).map(TransactionStatus.init(parsing:)) ?? .broadcasted
        try self.init(
            facts: facts,
            status: StatusUpdate(
                status,
                confirmedAt: try date(.confirmedAt),
                failureReason: try string(.failureReason),
                details: try RecordField.decode(RecordField.statusDetails, from: decoder),
                evidence: try string(.statusEvidence).map { text in
                    try StatusEvidence(rawValue: text).orThrow(
                        .invalidInput(field: "statusEvidence", reason: "must be proof or inference")
                    )
                } ?? .proof
            ),
            lastCheckedAt: try date(.lastCheckedAt),
            note: try string(.note),
            labels: try c.decodeIfPresent([String].self, forKey: .labels) ?? [],
            hidden: try c.decodeIfPresent(Bool.self, forKey: .hidden) ?? false
        )
    }
}

private struct AppJSON: Codable {
    let domain: String?
    let uri: String?
    let scheme: String?

    init(_ app: AppMetadata) {
        domain = app.domain
        uri = app.uri
        scheme = app.scheme
    }
}

extension Optional {
    fileprivate func orThrow(_ error: LedgerError) throws -> Wrapped {
        guard let self else { throw error }
        return self
    }
}
