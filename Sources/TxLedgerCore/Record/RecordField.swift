/// The one definition of a record's fields (Specs/bundle-format.md, "Record frames"; schema.md):
/// each case is a field, its raw value the field's number in a bundle frame (and in a stored
/// record's frame), its `name` the spec's, its `encoding` how a frame writes its value. The
/// frame codec, hence the store, the frame shape rules and the facts' tie-break key all derive
/// from this list. A new optional fact is one case here with its `extraFact` rule,
/// and its spec lines: it is then kept in `TransactionFacts.extras`, and bundles, the store,
/// JSON, CSV, `show` and the CLI's `--fact` carry it (`replaces` is one).
///
/// Numbers are never reused nor renumbered: a new field takes the next number, and fields
/// above the last one known are a newer version's (`NewerFields`).
package enum RecordField: Int, CaseIterable, Sendable {
    case kind = 1
    case chain, timestampMs, txHash, explorerUrl, fiatValue, fromAddress
    case appDomain, appUri, appScheme, method
    case toAddress, amount, tokenSymbol, tokenContract, tokenDecimals, tokenLogo, feeEstimate, memo
    case fromTokenSymbol, fromTokenContract, fromTokenDecimals, fromAmount, fromChain, fromTokenLogo
    case toTokenSymbol, toTokenContract, toTokenDecimals, toAmount, minPayout, toChain, toTokenLogo
    case provider, route
    case message, signature
    case factsTime, factsReplica
    case pendingTime, pendingReplica
    case terminalStatus, confirmedAtMs, failureReason, terminalTime, terminalReplica
    case lastCheckedAtMs
    case note, noteTime, noteReplica
    case labels, labelsTime, labelsReplica
    case hidden, hiddenTime, hiddenReplica
    case nonce
    case replaces
    case inferredReason, inferredTime, inferredReplica
    case blockNumber, feePaid
    case replacedBy
    case spends

    /// The field's number in a frame (from 1).
    package var number: Int { rawValue }

    /// The spec's name of the field (and its column in v7's `record` table, which migration v8
    /// reads): the case name in snake case (`timestampMs` is `timestamp_ms`).
    package var name: String { Self.names[rawValue - 1] }

    private static let names = allCases.map { field in
        String(describing: field).reduce(into: "") { name, character in
            if character.isUppercase { name += "_" }
            name += character.lowercased()
        }
    }

    /// The field numbered `number`, if this version knows it.
    package init?(number: Int) { self.init(rawValue: number) }

    /// The number of the last field this version knows; fields above it are a newer version's.
    static let last = allCases.count

    /// The last field that bundle formats 1–3 and schema v7 know: their frames and columns hold
    /// fields 1–56 only.
    package static let lastInFormat3 = RecordField.nonce

    /// Every field in increasing number (`allCases`, built once: hot loops iterate it).
    static let all = allCases

    /// How a frame writes the field's value.
    var encoding: FieldEncoding {
        switch self {
        case .timestampMs, .tokenDecimals, .fromTokenDecimals, .toTokenDecimals, .hidden, .nonce, .blockNumber:
            .integer
        case .txHash, .explorerUrl, .fiatValue, .toAddress, .amount, .feeEstimate, .memo, .fromAmount, .toAmount,
            .minPayout, .message, .signature, .note, .replaces, .inferredReason, .feePaid, .replacedBy, .spends:
            .text
        case .confirmedAtMs, .lastCheckedAtMs: .sinceTimestamp
        case .factsTime, .pendingTime, .terminalTime, .noteTime, .labelsTime, .hiddenTime, .inferredTime: .stampTime
        case .factsReplica, .pendingReplica, .terminalReplica, .noteReplica, .labelsReplica, .hiddenReplica,
            .inferredReplica:
            .replica
        case .kind, .chain, .fromAddress, .appDomain, .appUri, .appScheme, .method, .tokenSymbol, .tokenContract,
            .tokenLogo, .fromTokenSymbol, .fromTokenContract, .fromChain, .fromTokenLogo, .toTokenSymbol,
            .toTokenContract, .toChain, .toTokenLogo, .provider, .route, .terminalStatus, .failureReason, .labels:
            .sharedText
        }
    }

    /// Whether the field's values repeat across records (a chain, a token, a sender, an app, a
    /// status): a stored frame refers to its ledger file's table of texts for them
    /// (`FrameTables`). A failure reason, labels and a route are mostly one record's own and
    /// are written out in the frame.
    package var repeatsAcrossRecords: Bool {
        encoding == .sharedText && self != .failureReason && self != .labels && self != .route
    }

    /// The register the field belongs to: a fact, a register's stamp or value, or
    /// `lastCheckedAt`, which is no register.
    var register: RecordRegister? {
        switch self {
        case .factsTime, .factsReplica: .facts
        case .pendingTime, .pendingReplica: .pending
        case .terminalStatus, .confirmedAtMs, .failureReason, .terminalTime, .terminalReplica, .blockNumber, .feePaid,
            .replacedBy:
            .terminal
        case .inferredReason, .inferredTime, .inferredReplica: .inferred
        case .lastCheckedAtMs: nil
        case .note, .noteTime, .noteReplica: .note
        case .labels, .labelsTime, .labelsReplica: .labels
        case .hidden, .hiddenTime, .hiddenReplica: .hidden
        case .kind, .chain, .timestampMs, .txHash, .explorerUrl, .fiatValue, .fromAddress, .appDomain, .appUri,
            .appScheme, .method, .toAddress, .amount, .tokenSymbol, .tokenContract, .tokenDecimals, .tokenLogo,
            .feeEstimate, .memo, .fromTokenSymbol, .fromTokenContract, .fromTokenDecimals, .fromAmount, .fromChain,
            .fromTokenLogo, .toTokenSymbol, .toTokenContract, .toTokenDecimals, .toAmount, .minPayout, .toChain,
            .toTokenLogo, .provider, .route, .message, .signature, .nonce, .replaces, .spends:
            .facts
        }
    }

    /// How the field is checked if it is an extra fact: an optional fact with no property of its
    /// own in `TransactionFacts`, kept in `TransactionFacts.extras` under `key`.
    var extraFact: ExtraFactRule? {
        switch self {
        case .nonce: .evmNonce
        case .replaces: .transactionHash
        case .spends: .outpoints
        case .kind, .chain, .timestampMs, .txHash, .explorerUrl, .fiatValue, .fromAddress, .appDomain, .appUri,
            .appScheme, .method, .toAddress, .amount, .tokenSymbol, .tokenContract, .tokenDecimals, .tokenLogo,
            .feeEstimate, .memo, .fromTokenSymbol, .fromTokenContract, .fromTokenDecimals, .fromAmount, .fromChain,
            .fromTokenLogo, .toTokenSymbol, .toTokenContract, .toTokenDecimals, .toAmount, .minPayout, .toChain,
            .toTokenLogo, .provider, .route, .message, .signature, .factsTime, .factsReplica, .pendingTime,
            .pendingReplica, .terminalStatus, .confirmedAtMs, .failureReason, .terminalTime, .terminalReplica,
            .lastCheckedAtMs, .note, .noteTime, .noteReplica, .labels, .labelsTime, .labelsReplica, .hidden,
            .hiddenTime, .hiddenReplica, .inferredReason, .inferredTime, .inferredReplica, .blockNumber,
            .feePaid, .replacedBy:
            nil
        }
    }

    /// The extra facts, in field order.
    static let extraFacts = all.filter { $0.extraFact != nil }

    /// The field's key in a record's JSON and in `TransactionFacts.extras`: the case name
    /// (`replaces`), where `name` is the spec's snake case.
    package var key: String { Self.keys[rawValue - 1] }

    /// Built once: `String(describing:)` of a case goes through reflection, and hot paths ask
    /// for keys of every record (`replaces`, the extra facts).
    private static let keys = allCases.map { String(describing: $0) }

    /// Whether the field is a fact (written once with the record, under the facts stamp).
    var isFact: Bool { register == .facts && self != .factsTime && self != .factsReplica }

    /// The kind of record that alone has this fact, or `nil` for a fact of every record (and
    /// for the registers).
    var onlyOf: TransactionKind? {
        switch self {
        case .toAddress, .amount, .tokenSymbol, .tokenContract, .tokenDecimals, .tokenLogo, .feeEstimate, .memo:
            .send
        case .fromTokenSymbol, .fromTokenContract, .fromTokenDecimals, .fromAmount, .fromChain, .fromTokenLogo,
            .toTokenSymbol, .toTokenContract, .toTokenDecimals, .toAmount, .minPayout, .toChain, .toTokenLogo,
            .provider, .route:
            .swap
        case .message, .signature: .signature
        case .kind, .chain, .timestampMs, .txHash, .explorerUrl, .fiatValue, .fromAddress, .appDomain, .appUri,
            .appScheme, .method, .factsTime, .factsReplica, .pendingTime, .pendingReplica, .terminalStatus,
            .confirmedAtMs, .failureReason, .terminalTime, .terminalReplica, .lastCheckedAtMs, .note, .noteTime,
            .noteReplica, .labels, .labelsTime, .labelsReplica, .hidden, .hiddenTime, .hiddenReplica, .nonce,
            .replaces, .inferredReason, .inferredTime, .inferredReplica, .blockNumber, .feePaid, .replacedBy,
            .spends:
            nil
        }
    }

    /// The fields of the app that asked for a signature or a transaction; v7 kept them once per
    /// app (its `app` table, which migration v8 reads).
    package var isApp: Bool { self == .appDomain || self == .appUri || self == .appScheme }
}
