import TxLedgerCore
import TxLedgerSodium

/// The public half of a device's identity, or of a recovery secret's: the Ed25519 key that
/// verifies what it signs and the X25519 key that files' keys are sealed for (Specs/devices.md,
/// "Device identity"). It can be shared freely: its printable form (`TXLD1-…`) carries a
/// checksum so that a mistyped or cut form is refused.
public struct PublicIdentity: Hashable, Sendable {
    /// The Ed25519 public key (32 bytes).
    public let signKey: [UInt8]
    /// The X25519 public key (32 bytes).
    public let boxKey: [UInt8]

    package static let keyCount = 32
    static let printablePrefix = "TXLD1"
    static let checksumCount = 5

    /// - Throws: `LedgerError.invalidInput` if a key is not 32 bytes.
    package init(signKey: [UInt8], boxKey: [UInt8]) throws {
        guard signKey.count == Self.keyCount, boxKey.count == Self.keyCount else {
            throw LedgerError.invalidInput(field: "identity", reason: "a public key is not 32 bytes")
        }
        self.signKey = signKey
        self.boxKey = boxKey
    }

    /// `signKey || boxKey`: the 64 bytes an operation writes.
    package var bytes: [UInt8] { signKey + boxKey }

    /// The identity of `bytes` (64 bytes, as `bytes` writes them).
    package init(bytes: [UInt8]) throws {
        guard bytes.count == 2 * Self.keyCount else {
            throw LedgerError.invalidInput(field: "identity", reason: "\(bytes.count) bytes instead of 64")
        }
        try self.init(signKey: Array(bytes.prefix(Self.keyCount)), boxKey: Array(bytes.suffix(Self.keyCount)))
    }

    /// The device id: `BLAKE2b-128("TXLDEVID" || signKey || boxKey)`.
    public var deviceID: DeviceID {
        DeviceID(bytes: Sodium.genericHash(Array("TXLDEVID".utf8) + bytes, outputLength: DeviceID.byteCount))
    }

    /// Whether `signature` is this identity's signature of `message`.
    package func verifies(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        SigningKeyPair.verify(signature, of: message, publicKey: signKey)
    }

    // MARK: - Printable form

    /// `TXLD1-` and the 64 bytes and the first 5 bytes of their BLAKE2b-128, in Crockford
    /// base32 groups of 5: what a device shows so that another can add it by hand.
    public var printableText: String {
        CrockfordBase32.encode(bytes + Self.checksum(bytes), prefix: Self.printablePrefix, groupSize: 5)
    }

    /// Parses the printable form (any case; dashes, spaces and line breaks ignored).
    /// - Throws: `LedgerError.invalidInput` (field `identity`) saying what is wrong: the
    ///   prefix, the length, a symbol, or a checksum that does not match (a mistyped symbol).
    public init(printable text: String) throws {
        func refuse(_ reason: String) -> LedgerError { LedgerError.invalidInput(field: "identity", reason: reason) }
        let count = 2 * Self.keyCount + Self.checksumCount
        switch CrockfordBase32.decode(text, prefix: Self.printablePrefix, byteCount: count) {
        case .failure(.prefix): throw refuse("it does not start with \(Self.printablePrefix)")
        case let .failure(.symbolCount(found, expected)):
            throw refuse("it has \(found) symbols after the prefix instead of \(expected)")
        case let .failure(.notASymbol(position)): throw refuse("symbol \(position) is not a base32 character")
        case .failure(.padding): throw refuse("its checksum does not match; a character is mistyped")
        case let .success(decoded):
            let bytes = Array(decoded.prefix(2 * Self.keyCount))
            guard Array(decoded.suffix(Self.checksumCount)) == Self.checksum(bytes) else {
                throw refuse("its checksum does not match; a character is mistyped")
            }
            try self.init(bytes: bytes)
        }
    }

    private static func checksum(_ bytes: [UInt8]) -> [UInt8] {
        Array(Sodium.genericHash(bytes, outputLength: 16).prefix(checksumCount))
    }
}
