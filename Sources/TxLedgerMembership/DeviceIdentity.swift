import TxLedgerCore
import TxLedgerSodium

/// A device's identity with its private keys: one 32-byte seed, from which its Ed25519 and
/// X25519 key pairs derive (Specs/devices.md, "Device identity"). The seed never leaves the
/// device (`DeviceKeyStore` keeps it); nothing here prints it.
public struct DeviceIdentity: Sendable {
    let seed: SecretBytes
    private let signing: SigningKeyPair
    private let box: BoxKeyPair

    static let seedCount = 32

    /// The identity of a seed: the same seed, the same keys.
    package init(seed: SecretBytes) {
        precondition(seed.count == Self.seedCount)
        self.seed = seed
        signing = SigningKeyPair(
            seed: Sodium.keyedHash(Array("txledger device sign".utf8), key: seed, outputLength: 32)
        )
        box = BoxKeyPair(seed: Sodium.keyedHash(Array("txledger device box".utf8), key: seed, outputLength: 32))
    }

    /// The printable form of a seed in a key file (`TXLS1-…`), as a sync key's.
    static let printableSeed = PrintableSecret(prefix: "TXLS1")

    /// The identity of a seed an app kept (`withSeedBytes(_:)`).
    /// - Throws: `BundleError.invalidKey` if `seedBytes` is not 32 bytes.
    public init(seedBytes: UnsafeRawBufferPointer) throws {
        guard seedBytes.count == Self.seedCount else {
            throw BundleError.invalidKey("a device seed is 32 bytes, not \(seedBytes.count)")
        }
        self.init(seed: SecretBytes(copying: seedBytes))
    }

    /// Lends the seed's 32 bytes to `body`, for an app's key store to keep; they must not
    /// outlive the call.
    public func withSeedBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try seed.withUnsafeBytes(body)
    }

    /// A new identity from libsodium's CSPRNG.
    public static func generate() -> DeviceIdentity {
        DeviceIdentity(seed: .random(count: seedCount))
    }

    /// What others may know of it.
    public var publicIdentity: PublicIdentity {
        // Both keys are 32 bytes, as libsodium makes them.
        try! PublicIdentity(signKey: signing.publicKey, boxKey: box.publicKey)
    }

    /// The device id of its public identity.
    public var deviceID: DeviceID { publicIdentity.deviceID }

    /// Its Ed25519 signature of `message`.
    package func sign(_ message: [UInt8]) -> [UInt8] { signing.sign(message) }

    /// A box sealed for its X25519 key, opened; `nil` if it was sealed for another.
    package func open(_ sealed: [UInt8]) -> SecretBytes? { box.open(sealed) }
}
