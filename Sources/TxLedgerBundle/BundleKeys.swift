import TxLedgerCore
import TxLedgerSodium

/// The keys of one bundle, derived from its secret and its header's salt
/// (Specs/bundle-format.md, "Keys"):
///
/// - bundle key: with a sync key K, BLAKE2b-256 keyed with K over the salt; with a passphrase,
///   Argon2id(passphrase, salt, opslimit, memlimit), 32 bytes;
/// - from the bundle key, with `crypto_kdf_derive_from_key` and context `txlbndl1`: subkey 1
///   (16 bytes) is the key check, subkey 2 (32 bytes) the header MAC key, subkey 3 (32 bytes)
///   the secretstream key.
///
/// The salt makes every bundle's keys, and so its key check, different: two bundles sealed
/// with the same key cannot be linked by their headers.
package struct BundleKeys: Sendable {
    private static let context = "txlbndl1"

    let keyCheck: SecretBytes
    let macKey: SecretBytes
    let streamKey: SecretBytes

    init(secret: BundleSecret, salt: [UInt8], cost: Argon2idCost?) throws {
        switch secret {
        case let .syncKey(key):
            self.init(bundleKey: Sodium.keyedHash(salt, key: key.secret, outputLength: 32))
        case let .passphrase(passphrase):
            guard let cost else { preconditionFailure("a passphrase bundle has an Argon2id cost") }
            guard
                let key = Sodium.passwordHash(
                    passphrase.secret,
                    salt: salt,
                    operations: cost.operations,
                    memoryLimit: Int(cost.memoryBytes),
                    length: 32
                )
            else {
                throw BundleError.insufficientMemory(bytes: cost.memoryBytes)
            }
            self.init(bundleKey: key)
        }
    }

    /// The keys of a format 5 bundle (Specs/devices.md, "Format 5"): its bundle key is
    /// BLAKE2b-256 keyed with the file key a stanza holds, over the salt.
    init(fileKey: SecretBytes, salt: [UInt8]) {
        self.init(bundleKey: Sodium.keyedHash(salt, key: fileKey, outputLength: 32))
    }

    private init(bundleKey: SecretBytes) {
        keyCheck = Sodium.deriveSubkey(
            from: bundleKey,
            id: 1,
            context: Self.context,
            length: BundleHeader.keyCheckBytes
        )
        macKey = Sodium.deriveSubkey(from: bundleKey, id: 2, context: Self.context, length: 32)
        streamKey = Sodium.deriveSubkey(
            from: bundleKey,
            id: 3,
            context: Self.context,
            length: SecretStreamEncryptor.keyBytes
        )
    }

    /// The header of a new bundle sealed with these keys: their key check, and its MAC.
    func seal(
        version: UInt8,
        mode: KeyMode,
        cost: Argon2idCost?,
        salt: [UInt8],
        streamHeader: [UInt8],
        stanzas: RecipientStanzas? = nil
    ) -> BundleHeader {
        var header = BundleHeader(
            version: version,
            mode: mode,
            cost: cost,
            salt: salt,
            keyCheck: keyCheck.withUnsafeBytes { Array($0) },
            streamHeader: streamHeader,
            stanzas: stanzas,
            mac: []
        )
        header.mac = Sodium.mac(header.authenticatedBytes, key: macKey)
        return header
    }

    /// Whether these keys are the ones the header was sealed with (constant time).
    func opens(_ header: BundleHeader) -> Bool {
        header.keyCheck.withUnsafeBytes { check in keyCheck.withUnsafeBytes { Sodium.constantTimeEqual(check, $0) } }
    }

    /// Whether the header's MAC matches its bytes (constant time).
    func authenticates(_ header: BundleHeader) -> Bool {
        Sodium.mac(header.authenticatedBytes, key: macKey).withUnsafeBytes { expected in
            header.mac.withUnsafeBytes { Sodium.constantTimeEqual(expected, $0) }
        }
    }
}
