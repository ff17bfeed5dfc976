#if canImport(Clibsodium)
internal import Clibsodium
#else
internal import CSodium
#endif

/// An X25519 key pair (`crypto_box`) that opens sealed boxes (`crypto_box_seal`): a device or
/// a recovery secret receives a file's key with it. The secret half lives in `SecretBytes`.
package struct BoxKeyPair: Sendable {
    /// The 32-byte public key.
    package let publicKey: [UInt8]
    private let secretKey: SecretBytes

    /// The key pair of a 32-byte seed (`crypto_box_seed_keypair`): the same seed, the same pair.
    package init(seed: SecretBytes) {
        Sodium.ensureInitialized()
        precondition(seed.count == Int(crypto_box_seedbytes()))
        var publicKey = [UInt8](repeating: 0, count: Int(crypto_box_publickeybytes()))
        secretKey = SecretBytes(count: Int(crypto_box_secretkeybytes())) { secret in
            seed.withUnsafeBytes { seed in
                publicKey.withUnsafeMutableBytes { publicKey in
                    let rc = crypto_box_seed_keypair(
                        publicKey.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        secret.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        seed.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    )
                    precondition(rc == 0, "crypto_box_seed_keypair failed with valid sizes")
                }
            }
        }
        self.publicKey = publicKey
    }

    /// `message` sealed for `publicKey` (`crypto_box_seal`): an ephemeral key pair each time,
    /// so only the recipient opens it and nobody learns who sealed it. `sealOverhead` bytes
    /// longer than `message`.
    package static func seal(_ message: SecretBytes, for publicKey: [UInt8]) -> [UInt8] {
        Sodium.ensureInitialized()
        precondition(publicKey.count == Int(crypto_box_publickeybytes()))
        var sealed = [UInt8](repeating: 0, count: message.count + sealOverhead)
        sealed.withUnsafeMutableBytes { sealed in
            message.withUnsafeBytes { message in
                publicKey.withUnsafeBytes { publicKey in
                    let rc = crypto_box_seal(
                        sealed.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        message.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        UInt64(message.count),
                        publicKey.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    )
                    precondition(rc == 0, "crypto_box_seal failed with valid sizes")
                }
            }
        }
        return sealed
    }

    /// The message of a box sealed for this pair (`crypto_box_seal_open`), or `nil` if it was
    /// sealed for another key, altered, or shorter than `sealOverhead` + 1 bytes.
    package func open(_ sealed: [UInt8]) -> SecretBytes? {
        guard sealed.count > Self.sealOverhead else { return nil }
        var opened = true
        let message = SecretBytes(count: sealed.count - Self.sealOverhead) { message in
            sealed.withUnsafeBytes { sealed in
                publicKey.withUnsafeBytes { publicKey in
                    secretKey.withUnsafeBytes { secret in
                        opened =
                            crypto_box_seal_open(
                                message.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                sealed.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                UInt64(sealed.count),
                                publicKey.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                secret.baseAddress!.assumingMemoryBound(to: UInt8.self)
                            ) == 0
                    }
                }
            }
        }
        return opened ? message : nil
    }

    /// How much longer a sealed box is than its message (`crypto_box_SEALBYTES`).
    package static let sealOverhead = 48
}
