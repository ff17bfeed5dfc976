internal import CSodium

/// The one place that calls libsodium. Other modules never import `CSodium`.
///
/// `sodium_init()` is idempotent and thread safe; every entry point calls it first.
enum Sodium {
    private static let initialized: Bool = sodium_init() >= 0

    private static func ensureInitialized() {
        precondition(initialized, "libsodium failed to initialize")
    }

    /// `count` bytes from libsodium's CSPRNG (`randombytes_buf`).
    static func randomBytes(_ count: Int) -> [UInt8] {
        precondition(count > 0)
        ensureInitialized()
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
        return bytes
    }

    /// Unkeyed BLAKE2b (`crypto_generichash`) with an output of `outputLength` bytes
    /// (between `crypto_generichash_BYTES_MIN` and `crypto_generichash_BYTES_MAX`).
    static func genericHash(_ input: [UInt8], outputLength: Int) -> [UInt8] {
        ensureInitialized()
        precondition(outputLength >= Int(crypto_generichash_bytes_min())
            && outputLength <= Int(crypto_generichash_bytes_max()))
        var out = [UInt8](repeating: 0, count: outputLength)
        let rc = out.withUnsafeMutableBufferPointer { outBuf in
            input.withUnsafeBufferPointer { inBuf in
                crypto_generichash(outBuf.baseAddress!, outputLength,
                                   inBuf.baseAddress, UInt64(inBuf.count), nil, 0)
            }
        }
        precondition(rc == 0, "crypto_generichash failed with valid sizes")
        return out
    }
}
