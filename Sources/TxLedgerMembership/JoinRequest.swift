import TxLedgerCore
import TxLedgerSodium

/// A device's request to join a vault (Specs/devices.md, "Pairing"): its public identity and
/// the replica it writes as, signed by its own key for that vault, so that neither can be
/// swapped on the way. Its printable form (`TXLJ1-…`, with a checksum) is what the device shows
/// as text or a QR code, or leaves in the sync folder; a member approves it after comparing
/// the `fingerprint` both devices show.
public struct JoinRequest: Equatable, Sendable {
    public let vault: String
    public let identity: PublicIdentity
    public let replica: ReplicaID
    /// The name the approving member gives the device.
    public var name: String
    let signature: [UInt8]

    static let printablePrefix = "TXLJ1"
    static let signatureContext = Array("TXLJSIG1".utf8)
    static let checksumCount = 5
    /// Identity, replica, signature.
    static let byteCount = 2 * PublicIdentity.keyCount + 8 + SigningKeyPair.signatureCount

    /// The fingerprint of the requesting device, which both devices show.
    public var fingerprint: String { identity.deviceID.fingerprint }

    /// `device`'s request to join `vault`, writing as `replica`.
    package init(vault: String, name: String, replica: ReplicaID, device: DeviceIdentity) throws {
        try TextField.identifier.validate(vault, field: "vault")
        self.vault = vault
        self.name = name
        self.replica = replica
        identity = device.publicIdentity
        signature = device.sign(Self.signedBytes(vault: vault, identity: identity, replica: replica))
    }

    /// `"TXLJSIG1" || vault (text) || identity (64) || replica (8 bytes big-endian)`.
    private static func signedBytes(vault: String, identity: PublicIdentity, replica: ReplicaID) -> [UInt8] {
        var bytes = signatureContext
        bytes.appendText(vault)
        bytes += identity.bytes
        bytes.appendBigEndian(UInt64(replica.rawValue), width: 8)
        return bytes
    }

    /// `TXLJ1-`, then the identity, the replica and the signature, and the first 5 bytes of
    /// their BLAKE2b-128, in Crockford base32 groups of 5.
    public var printableText: String {
        var bytes = identity.bytes
        bytes.appendBigEndian(UInt64(replica.rawValue), width: 8)
        bytes += signature
        return CrockfordBase32.encode(bytes + Self.checksum(bytes), prefix: Self.printablePrefix, groupSize: 5)
    }

    /// Reads a printable request for `vault`, to be added under `name`.
    /// - Throws: `LedgerError.invalidInput` (field `request`) for a form that does not parse,
    ///   a mistyped symbol, or a signature that does not verify for `vault` (a request for
    ///   another vault, or altered).
    public init(printable text: String, vault: String, name: String) throws {
        func refuse(_ reason: String) -> LedgerError { LedgerError.invalidInput(field: "request", reason: reason) }
        try TextField.identifier.validate(vault, field: "vault")
        let decoded: [UInt8]
        switch CrockfordBase32.decode(
            text,
            prefix: Self.printablePrefix,
            byteCount: Self.byteCount + Self.checksumCount
        ) {
        case .failure(.prefix): throw refuse("it does not start with \(Self.printablePrefix)")
        case let .failure(.symbolCount(found, expected)):
            throw refuse("it has \(found) symbols after the prefix instead of \(expected)")
        case let .failure(.notASymbol(position)): throw refuse("symbol \(position) is not a base32 character")
        case .failure(.padding): throw refuse("its checksum does not match; a character is mistyped")
        case let .success(bytes): decoded = bytes
        }
        let bytes = Array(decoded.prefix(Self.byteCount))
        guard Array(decoded.suffix(Self.checksumCount)) == Self.checksum(bytes) else {
            throw refuse("its checksum does not match; a character is mistyped")
        }
        let identity = try PublicIdentity(bytes: Array(bytes.prefix(2 * PublicIdentity.keyCount)))
        let raw = bytes[2 * PublicIdentity.keyCount..<2 * PublicIdentity.keyCount + 8].reduce(0) {
            $0 << 8 | UInt64($1)
        }
        guard raw <= UInt64(Int64.max) else { throw refuse("its replica id has its top bit set") }
        let replica = ReplicaID(rawValue: Int64(raw))
        let signature = Array(bytes.suffix(SigningKeyPair.signatureCount))
        guard identity.verifies(signature, of: Self.signedBytes(vault: vault, identity: identity, replica: replica))
        else {
            throw refuse(
                "its signature does not verify for vault '\(OutsideText.escaped(vault))' (another vault's request?)"
            )
        }
        self.vault = vault
        self.identity = identity
        self.replica = replica
        self.name = name
        self.signature = signature
    }

    private static func checksum(_ bytes: [UInt8]) -> [UInt8] {
        Array(Sodium.genericHash(bytes, outputLength: 16).prefix(checksumCount))
    }
}
