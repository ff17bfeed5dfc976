import Foundation

/// What a record says happened: written once when the transaction is recorded and never
/// edited. Construction validates every field, normalises the transaction hash for the chain,
/// derives the deterministic `id`, and fills in the explorer URL when the chain has one.
public struct TransactionFacts: Hashable, Sendable {
    public let id: TransactionID
    public let vaultId: String
    public let chain: Chain
    /// Broadcast time, in whole milliseconds.
    public let timestamp: Date
    /// The on-chain hash in the chain's canonical form; `nil` for signatures.
    public let txHash: String?
    public let explorerUrl: String?
    /// USD value at broadcast.
    public let fiatValue: DecimalAmount?
    public let fromAddress: String?
    /// The sender's nonce, for EVM transactions when the wallet knows it: with `fromAddress`
    /// it lets a status check tell a dropped or replaced transaction from a slow one.
    public let nonce: UInt64?
    public let app: AppMetadata?
    /// The wallet method that produced it: `eth_sendTransaction`, `wallet_sendCalls`,
    /// `personal_sign`, `eth_signTypedData_v4`, `wallet_connect_siwe`, ...
    public let method: String?
    /// The extra facts by key: optional facts kept without a property of their own, each one
    /// entry of the field list (Specs/schema.md, "Extra facts"). `replaces`: the hash of the
    /// transaction that this speed-up or cancel replaces.
    public let extras: [String: String]
    public let details: TransactionDetails

    /// The keys `extras` may hold.
    public static let extraKeys = RecordField.extraFacts.map(\.key)

    public var kind: TransactionKind { details.kind }

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
        self.vaultId = try TextField.identifier.validate(vaultId, field: "vault")
        self.chain = chain
        self.timestamp = Date(millis: try Date.validatedMillis(timestamp, field: "timestamp"))
        self.fiatValue = fiatValue
        self.fromAddress = try fromAddress.map { try chain.validatedAddress($0, field: "from address") }
        self.nonce = try Self.validatedNonce(nonce, chain: chain, details: details)
        self.app = app
        self.method = try TextField.line(max: 128).validate(method, field: "method")
        self.extras = try Self.validatedExtras(extras, chain: chain, kind: details.kind)
        self.details = details

        switch details {
        case let .send(send):
            _ = try chain.validatedAddress(send.toAddress, field: "to address")
        case .swap, .signature:
            break
        }

        if case let .signature(signature) = details {
            guard txHash == nil else {
                throw LedgerError.invalidInput(field: "hash", reason: "a signature record has no transaction hash")
            }
            guard let method else {
                throw LedgerError.invalidInput(
                    field: "method",
                    reason: "a signature record needs its signing method, e.g. personal_sign"
                )
            }
            self.txHash = nil
            self.id = TransactionID.derive(
                "txledger.sig.v1",
                [
                    self.vaultId, chain.id, method, self.fromAddress ?? "", signature.message,
                    signature.signature ?? "",
                ]
            )
        } else {
            guard let txHash else {
                throw LedgerError.invalidInput(
                    field: "hash",
                    reason: "a \(details.kind.rawValue) record needs its transaction hash"
                )
            }
            self.txHash = try chain.normalizedTxHash(txHash)
            self.id = try TransactionID.forTransaction(vault: self.vaultId, chain: chain, hash: txHash)
        }
        self.explorerUrl =
            try TextField.url.validate(explorerUrl, field: "explorerUrl")
            ?? self.txHash.flatMap(chain.explorerURL(txHash:))
    }

    private static func validatedExtras(
        _ extras: [String: String],
        chain: Chain,
        kind: TransactionKind
    ) throws -> [String: String] {
        var kept: [String: String] = [:]
        for (key, value) in extras.sorted(by: { $0.key < $1.key }) {
            guard let rule = RecordField.extraFacts.first(where: { $0.key == key })?.extraFact else {
                throw LedgerError.invalidInput(
                    field: key,
                    reason: "is not a fact this version knows (extra facts: \(extraKeys.joined(separator: ", ")))"
                )
            }
            kept[key] = try rule.validated(value, key: key, chain: chain, kind: kind)
        }
        return kept
    }

    private static func validatedNonce(_ nonce: UInt64?, chain: Chain, details: TransactionDetails) throws -> UInt64? {
        guard let nonce else { return nil }
        guard chain.family == .evm, details.kind != .signature else {
            throw LedgerError.invalidInput(field: "nonce", reason: "only an EVM send or swap has a nonce")
        }
        guard nonce <= UInt64(Int64.max) else {
            throw LedgerError.invalidInput(field: "nonce", reason: "must be at most \(Int64.max)")
        }
        return nonce
    }
}
