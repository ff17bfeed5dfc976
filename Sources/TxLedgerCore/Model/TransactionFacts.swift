import Foundation

/// What a record says happened: written once when the transaction is recorded and never
/// edited. Construction validates every field, normalises the transaction hash for the chain,
/// derives the deterministic `id`, and fills in the explorer URL when the chain has one.
public struct TransactionFacts: Hashable, Sendable {
    /// The facts, shared by every copy: a record's state is copied often (a merge copies each
    /// one several times), and a copy of the box is one reference where the facts hold about
    /// thirty.
    private final class Box: Sendable {
        let values: Values
        init(_ values: Values) { self.values = values }
    }

    private struct Values: Hashable, Sendable {
        let id: TransactionID
        let vaultId: String
        let chain: Chain
        let timestamp: Date
        let txHash: String?
        /// The explorer page given for the transaction, if it is not the chain's default page
        /// for `txHash` (`explorerUrl` derives that one when asked, not each record read).
        let customExplorerUrl: String?
        let fiatValue: DecimalAmount?
        let fromAddress: String?
        let app: AppMetadata?
        let method: String?
        let extras: [String: String]
        let details: TransactionDetails
    }

    private let box: Box

    public var id: TransactionID { box.values.id }
    public var vaultId: String { box.values.vaultId }
    public var chain: Chain { box.values.chain }
    /// Broadcast time, in whole milliseconds.
    public var timestamp: Date { box.values.timestamp }
    /// The on-chain hash in the chain's canonical form; `nil` for signatures.
    public var txHash: String? { box.values.txHash }
    /// The transaction's explorer page: the one given, or the chain's default page.
    public var explorerUrl: String? {
        box.values.customExplorerUrl ?? box.values.txHash.flatMap(box.values.chain.explorerURL(txHash:))
    }
    /// Whether `explorerUrl` is the chain's default page for the hash, which a frame leaves out.
    package var hasDefaultExplorerUrl: Bool {
        box.values.customExplorerUrl == nil && box.values.txHash != nil && box.values.chain.explorerPrefix != nil
    }
    /// USD value at broadcast.
    public var fiatValue: DecimalAmount? { box.values.fiatValue }
    public var fromAddress: String? { box.values.fromAddress }
    /// The sender's nonce, for EVM transactions when the wallet knows it: with `fromAddress`
    /// it lets a status check tell a dropped or replaced transaction from a slow one.
    public var nonce: UInt64? { extras[RecordField.nonce.key].flatMap { UInt64($0) } }
    public var app: AppMetadata? { box.values.app }
    /// The wallet method that produced it: `eth_sendTransaction`, `wallet_sendCalls`,
    /// `personal_sign`, `eth_signTypedData_v4`, `wallet_connect_siwe`, ...
    public var method: String? { box.values.method }
    /// The extra facts by key: optional facts kept without a property of their own, each one
    /// entry of the field list (Specs/schema.md, "Extra facts"). `replaces`: the hash of the
    /// transaction that this speed-up or cancel replaces.
    public var extras: [String: String] { box.values.extras }
    public var details: TransactionDetails { box.values.details }

    /// The keys `extras` may hold.
    public static let extraKeys = RecordField.extraFacts.map(\.key)

    public var kind: TransactionKind { details.kind }

    public static func == (lhs: TransactionFacts, rhs: TransactionFacts) -> Bool {
        lhs.box === rhs.box || lhs.box.values == rhs.box.values
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(box.values) }

    /// - Parameters:
    ///   - vaultId: the vault (the wallet account) it belongs to.
    ///   - chain: the chain it was sent on.
    ///   - timestamp: when it was broadcast (or signed).
    ///   - txHash: required for sends and swaps, absent for signatures.
    ///   - fiatValue: its USD value at broadcast.
    ///   - fromAddress: the sender's address.
    ///   - app: the dApp that asked for it, if any.
    ///   - details: what kind of transaction it is, and its fields.
    ///   - explorerUrl: defaults to the chain's explorer page for `txHash`.
    ///   - nonce: EVM sends and swaps only; at most 2^63 - 1.
    ///   - method: required for signatures.
    ///   - extras: extra facts by key (`extraKeys`), each checked by its rule.
    /// - Throws: `LedgerError.invalidInput` naming the first field that is not acceptable.
    public init(
        vaultId: String,
        chain: Chain,
        timestamp: Date,
        txHash: String?,
        explorerUrl: String? = nil,
        fiatValue: DecimalAmount? = nil,
        fromAddress: String? = nil,
        nonce: UInt64? = nil,
        app: AppMetadata? = nil,
        method: String? = nil,
        extras: [String: String] = [:],
        details: TransactionDetails
    ) throws {
        let vaultId = try TextField.identifier.validate(vaultId, field: "vault")
        let timestamp = Date(millis: try Date.validatedMillis(timestamp, field: "timestamp"))
        let fromAddress = try fromAddress.map { try chain.validatedAddress($0, field: RecordField.fromAddress.key) }
        let method = try TextField.line(max: 128).validate(method, field: "method")
        var given = extras
        if let nonce {
            guard given.updateValue(String(nonce), forKey: RecordField.nonce.key) == nil else {
                throw LedgerError.invalidInput(field: "nonce", reason: "is given twice (as nonce and as an extra fact)")
            }
        }
        let extras = try Self.validatedExtras(given, chain: chain, kind: details.kind)

        switch details {
        case let .send(send):
            _ = try chain.validatedAddress(send.toAddress, field: RecordField.toAddress.key)
        case .swap, .signature:
            break
        }

        let id: TransactionID
        let hash: String?
        if case let .signature(signature) = details {
            guard txHash == nil else {
                throw LedgerError.invalidInput(
                    field: RecordField.txHash.key,
                    reason: "a signature record has no transaction hash"
                )
            }
            guard let method else {
                throw LedgerError.invalidInput(
                    field: "method",
                    reason: "a signature record needs its signing method, e.g. personal_sign"
                )
            }
            hash = nil
            id = TransactionID.derive(
                "txledger.sig.v1",
                [vaultId, chain.id, method, fromAddress ?? "", signature.message, signature.signature ?? ""]
            )
        } else {
            guard let txHash else {
                throw LedgerError.invalidInput(
                    field: RecordField.txHash.key,
                    reason: "a \(details.kind.rawValue) record needs its transaction hash"
                )
            }
            let canonical = try chain.normalizedTxHash(txHash)
            hash = canonical
            id = TransactionID.forCanonicalHash(vault: vaultId, chain: chain, hash: canonical)
        }
        let givenExplorerUrl = try TextField.url.validate(explorerUrl, field: "explorerUrl")
        box = Box(
            Values(
                id: id,
                vaultId: vaultId,
                chain: chain,
                timestamp: timestamp,
                txHash: hash,
                customExplorerUrl: givenExplorerUrl.flatMap { given in
                    given == hash.flatMap(chain.explorerURL(txHash:)) ? nil : given
                },
                fiatValue: fiatValue,
                fromAddress: fromAddress,
                app: app,
                method: method,
                extras: extras,
                details: details
            )
        )
    }

    private static func validatedExtras(
        _ extras: [String: String],
        chain: Chain,
        kind: TransactionKind
    ) throws -> [String: String] {
        guard !extras.isEmpty else { return extras }
        // Extras as a writer keeps them (every one known, valid and canonical) are kept as
        // given, without sorting them into a new dictionary (two allocations a record).
        let canonical = extras.allSatisfy { key, value in
            (try? Self.extraFactRule(key)?.validated(value, key: key, chain: chain, kind: kind)) == value
        }
        if canonical { return extras }
        // Else checked in key order, so that the error names the same fact whatever the order.
        var kept: [String: String] = [:]
        for (key, value) in extras.sorted(by: { $0.key < $1.key }) {
            guard let rule = Self.extraFactRule(key) else {
                throw LedgerError.invalidInput(
                    field: key,
                    reason: "is not a fact this version knows (extra facts: \(extraKeys.joined(separator: ", ")))"
                )
            }
            kept[key] = try rule.validated(value, key: key, chain: chain, kind: kind)
        }
        return kept
    }

    private static func extraFactRule(_ key: String) -> ExtraFactRule? {
        RecordField.extraFacts.first(where: { $0.key == key })?.extraFact
    }
}
