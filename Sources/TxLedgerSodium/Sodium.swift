#if canImport(Clibsodium)
internal import Clibsodium
#else
internal import CSodium
#endif

/// The one place that calls libsodium's primitives; other modules never import `CSodium`.
/// Sizes come from libsodium's own functions; comparisons of secrets are constant time.
///
/// `sodium_init()` is idempotent and thread safe; every entry point calls it first.
package enum Sodium {
    private static let initialized: Bool = sodium_init() >= 0

    static func ensureInitialized() {
        precondition(initialized, "libsodium failed to initialize")
    }

    /// `count` bytes from libsodium's CSPRNG (`randombytes_buf`).
    package static func randomBytes(_ count: Int) -> [UInt8] {
        precondition(count > 0)
        ensureInitialized()
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
        return bytes
    }

    /// Unkeyed BLAKE2b (`crypto_generichash`) with an output of `outputLength` bytes
    /// (between `crypto_generichash_BYTES_MIN` and `crypto_generichash_BYTES_MAX`).
    package static func genericHash(_ input: [UInt8], outputLength: Int) -> [UInt8] {
        input.withUnsafeBytes { genericHash($0, outputLength: outputLength) }
    }

    package static func genericHash(_ input: UnsafeRawBufferPointer, outputLength: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: outputLength)
        out.withUnsafeMutableBytes { genericHash(input, into: $0) }
        return out
    }

    /// Unkeyed BLAKE2b of `input` written to `out`, whose length is the output length (as
    /// `genericHash(_:outputLength:)`, without an array: a record's id is one a record decoded).
    package static func genericHash(_ input: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) {
        hash(input, key: nil, into: out)
    }

    /// Keyed BLAKE2b (`crypto_generichash` with a key): a MAC, or a pseudo-random function of
    /// `input` under `key`, whose output is itself a secret.
    package static func keyedHash(_ input: [UInt8], key: SecretBytes, outputLength: Int) -> SecretBytes {
        SecretBytes(count: outputLength) { out in
            input.withUnsafeBytes { input in key.withUnsafeBytes { key in hash(input, key: key, into: out) } }
        }
    }

    /// A MAC of `input` under `key`: keyed BLAKE2b with a 32-byte output.
    package static func mac(_ input: [UInt8], key: SecretBytes) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(crypto_generichash_bytes()))
        out.withUnsafeMutableBytes { out in
            input.withUnsafeBytes { input in key.withUnsafeBytes { key in hash(input, key: key, into: out) } }
        }
        return out
    }

    private static func hash(
        _ input: UnsafeRawBufferPointer,
        key: UnsafeRawBufferPointer?,
        into out: UnsafeMutableRawBufferPointer
    ) {
        ensureInitialized()
        precondition(
            out.count >= Int(crypto_generichash_bytes_min()) && out.count <= Int(crypto_generichash_bytes_max())
        )
        if let key {
            precondition(
                key.count >= Int(crypto_generichash_keybytes_min())
                    && key.count <= Int(crypto_generichash_keybytes_max())
            )
        }
        let rc = crypto_generichash(
            out.baseAddress!.assumingMemoryBound(to: UInt8.self),
            out.count,
            input.baseAddress?.assumingMemoryBound(to: UInt8.self),
            UInt64(input.count),
            key?.baseAddress?.assumingMemoryBound(to: UInt8.self),
            key?.count ?? 0
        )
        precondition(rc == 0, "crypto_generichash failed with valid sizes")
    }

    /// Subkey `id` of `length` bytes derived from a 32-byte master key under an 8-byte
    /// `context` (`crypto_kdf_derive_from_key`).
    package static func deriveSubkey(from master: SecretBytes, id: UInt64, context: String, length: Int) -> SecretBytes
    {
        ensureInitialized()
        let context = Array(context.utf8)
        precondition(context.count == Int(crypto_kdf_contextbytes()) && master.count == Int(crypto_kdf_keybytes()))
        return SecretBytes(count: length) { out in
            let rc = context.withUnsafeBufferPointer { context in
                master.withUnsafeBytes { master in
                    context.withMemoryRebound(to: CChar.self) { context in
                        crypto_kdf_derive_from_key(
                            out.baseAddress!.assumingMemoryBound(to: UInt8.self),
                            out.count,
                            id,
                            context.baseAddress!,
                            master.baseAddress!.assumingMemoryBound(to: UInt8.self)
                        )
                    }
                }
            }
            precondition(rc == 0, "crypto_kdf_derive_from_key failed with valid sizes")
        }
    }

    /// Argon2id (`crypto_pwhash` with `crypto_pwhash_ALG_ARGON2ID13`): a `length`-byte key from
    /// a passphrase and a salt. `nil` if the system cannot give it `memoryLimit` bytes.
    package static func passwordHash(
        _ passphrase: SecretBytes,
        salt: [UInt8],
        operations: UInt64,
        memoryLimit: Int,
        length: Int
    ) -> SecretBytes? {
        ensureInitialized()
        precondition(salt.count == Int(crypto_pwhash_saltbytes()))
        var failed = false
        let key = SecretBytes(count: length) { out in
            let rc = passphrase.withUnsafeBytes { passphrase in
                salt.withUnsafeBufferPointer { salt in
                    crypto_pwhash(
                        out.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        UInt64(out.count),
                        passphrase.baseAddress!.assumingMemoryBound(to: CChar.self),
                        UInt64(passphrase.count),
                        salt.baseAddress!,
                        operations,
                        memoryLimit,
                        crypto_pwhash_alg_argon2id13()
                    )
                }
            }
            failed = rc != 0
        }
        return failed ? nil : key
    }

    /// Constant-time equality of two byte strings (`sodium_memcmp`; lengths are not secret).
    package static func constantTimeEqual(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard a.count > 0 else { return true }
        return sodium_memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
    }

    /// Overwrites `bytes` with zeros in a way the compiler does not remove (`sodium_memzero`).
    package static func wipe(_ bytes: UnsafeMutableRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        sodium_memzero(base, bytes.count)
    }
}
