/// The one definition of a record's fields (Specs/bundle-format.md, "Record frames"; schema.md):
/// each case is a field, its raw value the field's number in a bundle frame (and in a stored
/// record's frame), its `name` the spec's, its `definition` how a frame writes its value, its
/// register and, for an extra fact, its rule. The frame codec, hence the store, the frame shape
/// rules and the facts' tie-break key all derive from this list. A new optional fact is one
/// case here and one line in `definition` with its `ExtraFactRule` (a typed one adds an
/// accessor in `TransactionFacts`), and its spec lines: it is then kept in
/// `TransactionFacts.extras`, and bundles, the store, JSON, CSV, `show` and the CLI's `--fact`
/// carry it (`nonce`, `replaces`, `spends`). A new status detail of a proven outcome is the
/// same with its `StatusDetailRule` and an accessor in `StatusUpdate`: it is kept in
/// `StatusUpdate.details` and carried by the same formats, the terminal register's tie-break
/// key and `status --detail` (`blockNumber`, `feePaid`, `replacedBy`).
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
    case clearedThroughTime, clearedThroughReplica, clearedTime, clearedReplica
    case terminalChecked
    case rivalStatus, rivalBlockNumber, rivalFeePaid, rivalChecked, rivalTime, rivalReplica

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

    /// The last field that bundle format 4 knows: fields 65–75 (the clear register, whether
    /// the chain said the outcome, its rival) came in format 5, and a format 4 frame that holds
    /// one is malformed (bundle-format.md).
    package static let lastInFormat4 = RecordField.spends

    /// Every field in increasing number (`allCases`, built once: hot loops iterate it).
    static let all = allCases

    /// The fields whose value a reader brings to its canonical form, as it brings local input
    /// (Specs/bundle-format.md, "Canonical forms"): every other field of a frame a reader
    /// accepts reads as it was written (`CanonicalFormTests`).
    package static let canonicalized: [RecordField] = [
        .chain, .txHash, .fromChain, .toChain, .labels, .replaces, .replacedBy, .spends,
    ]

    /// The field's definition: how a frame writes it, the register it belongs to, the kind of
    /// record that alone has it, and an extra fact's rule (`declaration`, looked up: hot loops
    /// ask for it for every field of every record).
    var definition: FieldDefinition { Self.definitions[rawValue - 1] }

    private static let definitions = allCases.map(\.declaration)

    /// The field's definition as declared. One line per field, no default: a new field is its
    /// case above and its line here, and the compiler asks for both.
    private var declaration: FieldDefinition {
        switch self {
        case .kind: FieldDefinition(.sharedText, .facts)
        case .chain: FieldDefinition(.sharedText, .facts)
        case .timestampMs: FieldDefinition(.integer, .facts)
        case .txHash: FieldDefinition(.text, .facts)
        case .explorerUrl: FieldDefinition(.text, .facts)
        case .fiatValue: FieldDefinition(.text, .facts)
        case .fromAddress: FieldDefinition(.sharedText, .facts)
        case .appDomain: FieldDefinition(.sharedText, .facts)
        case .appUri: FieldDefinition(.sharedText, .facts)
        case .appScheme: FieldDefinition(.sharedText, .facts)
        case .method: FieldDefinition(.sharedText, .facts)
        case .toAddress: FieldDefinition(.text, .facts, onlyOf: .send)
        case .amount: FieldDefinition(.text, .facts, onlyOf: .send)
        case .tokenSymbol: FieldDefinition(.sharedText, .facts, onlyOf: .send)
        case .tokenContract: FieldDefinition(.sharedText, .facts, onlyOf: .send)
        case .tokenDecimals: FieldDefinition(.integer, .facts, onlyOf: .send)
        case .tokenLogo: FieldDefinition(.sharedText, .facts, onlyOf: .send)
        case .feeEstimate: FieldDefinition(.text, .facts, onlyOf: .send)
        case .memo: FieldDefinition(.text, .facts, onlyOf: .send)
        case .fromTokenSymbol: FieldDefinition(.sharedText, .facts, onlyOf: .swap)
        case .fromTokenContract: FieldDefinition(.sharedText, .facts, onlyOf: .swap)
        case .fromTokenDecimals: FieldDefinition(.integer, .facts, onlyOf: .swap)
        case .fromAmount: FieldDefinition(.text, .facts, onlyOf: .swap)
        case .fromChain: FieldDefinition(.sharedText, .facts, onlyOf: .swap)
        case .fromTokenLogo: FieldDefinition(.sharedText, .facts, onlyOf: .swap)
        case .toTokenSymbol: FieldDefinition(.sharedText, .facts, onlyOf: .swap)
        case .toTokenContract: FieldDefinition(.sharedText, .facts, onlyOf: .swap)
        case .toTokenDecimals: FieldDefinition(.integer, .facts, onlyOf: .swap)
        case .toAmount: FieldDefinition(.text, .facts, onlyOf: .swap)
        case .minPayout: FieldDefinition(.text, .facts, onlyOf: .swap)
        case .toChain: FieldDefinition(.sharedText, .facts, onlyOf: .swap)
        case .toTokenLogo: FieldDefinition(.sharedText, .facts, onlyOf: .swap)
        case .provider: FieldDefinition(.sharedText, .facts, onlyOf: .swap)
        case .route: FieldDefinition(.sharedText, .facts, onlyOf: .swap)
        case .message: FieldDefinition(.text, .facts, onlyOf: .signature)
        case .signature: FieldDefinition(.text, .facts, onlyOf: .signature)
        case .factsTime: FieldDefinition(.stampTime, .facts)
        case .factsReplica: FieldDefinition(.replica, .facts)
        case .pendingTime: FieldDefinition(.stampTime, .pending)
        case .pendingReplica: FieldDefinition(.replica, .pending)
        case .terminalStatus: FieldDefinition(.sharedText, .terminal)
        case .confirmedAtMs: FieldDefinition(.sinceTimestamp, .terminal)
        case .failureReason: FieldDefinition(.sharedText, .terminal)
        case .terminalTime: FieldDefinition(.stampTime, .terminal)
        case .terminalReplica: FieldDefinition(.replica, .terminal)
        case .lastCheckedAtMs: FieldDefinition(.sinceTimestamp, nil)
        case .note: FieldDefinition(.text, .note)
        case .noteTime: FieldDefinition(.stampTime, .note)
        case .noteReplica: FieldDefinition(.replica, .note)
        case .labels: FieldDefinition(.sharedText, .labels)
        case .labelsTime: FieldDefinition(.stampTime, .labels)
        case .labelsReplica: FieldDefinition(.replica, .labels)
        case .hidden: FieldDefinition(.integer, .hidden)
        case .hiddenTime: FieldDefinition(.stampTime, .hidden)
        case .hiddenReplica: FieldDefinition(.replica, .hidden)
        case .nonce: FieldDefinition(.integer, .facts, extraFact: .evmNonce)
        case .replaces: FieldDefinition(.text, .facts, extraFact: .transactionHash)
        case .inferredReason: FieldDefinition(.text, .inferred)
        case .inferredTime: FieldDefinition(.stampTime, .inferred)
        case .inferredReplica: FieldDefinition(.replica, .inferred)
        case .blockNumber: FieldDefinition(.integer, .terminal, statusDetail: .blockHeight)
        case .feePaid: FieldDefinition(.text, .terminal, statusDetail: .nativeAmount)
        case .replacedBy: FieldDefinition(.text, .terminal, statusDetail: .replacingHash)
        case .spends: FieldDefinition(.text, .facts, extraFact: .outpoints)
        case .clearedThroughTime: FieldDefinition(.stampTime, .cleared)
        case .clearedThroughReplica: FieldDefinition(.replica, .cleared)
        case .clearedTime: FieldDefinition(.stampTime, .cleared)
        case .clearedReplica: FieldDefinition(.replica, .cleared)
        case .terminalChecked: FieldDefinition(.integer, .terminal)
        case .rivalStatus: FieldDefinition(.sharedText, .rival)
        case .rivalBlockNumber: FieldDefinition(.integer, .rival)
        case .rivalFeePaid: FieldDefinition(.text, .rival)
        case .rivalChecked: FieldDefinition(.integer, .rival)
        case .rivalTime: FieldDefinition(.stampTime, .rival)
        case .rivalReplica: FieldDefinition(.replica, .rival)
        }
    }

    /// How a frame writes the field's value.
    var encoding: FieldEncoding { definition.encoding }

    /// Whether the field's values repeat across records (a chain, a token, a sender, an app, a
    /// status): a stored frame refers to its ledger file's table of texts for them
    /// (`FrameTables`). A failure reason, labels and a route are mostly one record's own and
    /// are written out in the frame.
    package var repeatsAcrossRecords: Bool {
        encoding == .sharedText && self != .failureReason && self != .labels && self != .route
    }

    /// The register the field belongs to: a fact, a register's stamp or value, or
    /// `lastCheckedAt`, which is no register.
    var register: RecordRegister? { definition.register }

    /// How the field is checked if it is an extra fact: an optional fact with no property of its
    /// own in `TransactionFacts`, kept in `TransactionFacts.extras` under `key`.
    var extraFact: ExtraFactRule? { definition.extraFact }

    /// The extra facts, in field order.
    static let extraFacts = all.filter { $0.extraFact != nil }

    /// How the field is checked if it is a status detail: an optional value of a proven
    /// outcome, kept in `StatusUpdate.details` under `key`.
    var statusDetail: StatusDetailRule? { definition.statusDetail }

    /// The status details, in field order.
    package static let statusDetails = all.filter { $0.statusDetail != nil }

    /// The field's key in a record's JSON, in `TransactionFacts.extras` and in
    /// `StatusUpdate.details`: the case name (`blockNumber`), where `name` is the spec's snake
    /// case.
    package var key: String { Self.keys[rawValue - 1] }

    /// The field's words for people (`txledger show`): its name with spaces (`block number`).
    package var words: String { name.replacingOccurrences(of: "_", with: " ") }

    /// Built once: `String(describing:)` of a case goes through reflection, and hot paths ask
    /// for keys of every record (`replaces`, the extra facts).
    private static let keys = allCases.map { String(describing: $0) }

    /// Whether the field is a fact (written once with the record, under the facts stamp).
    var isFact: Bool { register == .facts && self != .factsTime && self != .factsReplica }

    /// The kind of record that alone has this fact, or `nil` for a fact of every record (and
    /// for the registers).
    var onlyOf: TransactionKind? { definition.onlyOf }

    /// The fields of the app that asked for a signature or a transaction; v7 kept them once per
    /// app (its `app` table, which migration v8 reads).
    package var isApp: Bool { self == .appDomain || self == .appUri || self == .appScheme }
}
