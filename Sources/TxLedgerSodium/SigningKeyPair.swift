#if canImport(Clibsodium)
internal import Clibsodium
#else
internal import CSodium
#endif

/// An Ed25519 key pair (`crypto_sign`): a device or a recovery secret signs with it. The
/// secret half lives in `SecretBytes` and never prints.
package struct SigningKeyPair: Sendable {
    /// The 32-byte public key.
    package let publicKey: [UInt8]
    private let secretKey: SecretBytes

    /// The key pair of a 32-byte seed (`crypto_sign_seed_keypair`): the same seed, the same
    /// pair.
    package init(seed: SecretBytes) {
        Sodium.ensureInitialized()
        precondition(seed.count == Int(crypto_sign_seedbytes()))
        var publicKey = [UInt8](repeating: 0, count: Int(crypto_sign_publickeybytes()))
        secretKey = SecretBytes(count: Int(crypto_sign_secretkeybytes())) { secret in
            seed.withUnsafeBytes { seed in
                publicKey.withUnsafeMutableBytes { publicKey in
                    let rc = crypto_sign_seed_keypair(
                        publicKey.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        secret.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        seed.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    )
                    precondition(rc == 0, "crypto_sign_seed_keypair failed with valid sizes")
                }
            }
        }
        self.publicKey = publicKey
    }

    /// The 64-byte detached signature of `message` (`crypto_sign_detached`): deterministic.
    package func sign(_ message: [UInt8]) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: Self.signatureCount)
        signature.withUnsafeMutableBytes { signature in
            message.withUnsafeBytes { message in
                secretKey.withUnsafeBytes { secret in
                    let rc = crypto_sign_detached(
                        signature.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        nil,
                        message.baseAddress?.assumingMemoryBound(to: UInt8.self),
                        UInt64(message.count),
                        secret.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    )
                    precondition(rc == 0, "crypto_sign_detached failed with valid sizes")
                }
            }
        }
        return signature
    }

    /// Whether `signature` is `publicKey`'s signature of `message`
    /// (`crypto_sign_verify_detached`); any size other than 64 and 32 bytes is not.
    package static func verify(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        Sodium.ensureInitialized()
        guard signature.count == signatureCount, publicKey.count == Int(crypto_sign_publickeybytes()) else {
            return false
        }
        return signature.withUnsafeBytes { signature in
            message.withUnsafeBytes { message in
                publicKey.withUnsafeBytes { publicKey in
                    crypto_sign_verify_detached(
                        signature.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        message.baseAddress?.assumingMemoryBound(to: UInt8.self),
                        UInt64(message.count),
                        publicKey.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    ) == 0
                }
            }
        }
    }

    /// The size of a signature.
    package static let signatureCount = 64
}
