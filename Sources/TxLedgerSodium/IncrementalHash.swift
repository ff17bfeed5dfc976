#if canImport(Clibsodium)
internal import Clibsodium
#else
internal import CSodium
#endif

/// Unkeyed BLAKE2b of a byte stream fed in pieces (`crypto_generichash_init`, `update`,
/// `final`): what a format 5 bundle's signature covers of its payload, hashed as it is written
/// or read.
package final class IncrementalHash {
    private let state: UnsafeMutableRawPointer
    private let outputLength: Int
    private var finished = false

    /// A hash with an output of `outputLength` bytes (16 to 64).
    package init(outputLength: Int) {
        Sodium.ensureInitialized()
        precondition(
            outputLength >= Int(crypto_generichash_bytes_min()) && outputLength <= Int(crypto_generichash_bytes_max())
        )
        self.outputLength = outputLength
        state = UnsafeMutableRawPointer.allocate(byteCount: crypto_generichash_statebytes(), alignment: 64)
        let rc = crypto_generichash_init(OpaquePointer(state), nil, 0, outputLength)
        precondition(rc == 0, "crypto_generichash_init failed with valid sizes")
    }

    deinit { state.deallocate() }

    /// Feeds `bytes`.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        precondition(!finished, "a hash is fed before it is finished")
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let rc = crypto_generichash_update(
            OpaquePointer(state),
            base.assumingMemoryBound(to: UInt8.self),
            UInt64(bytes.count)
        )
        precondition(rc == 0, "crypto_generichash_update failed")
    }

    package func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes(update) }

    /// The hash of everything fed; the hash is then finished.
    package func finish() -> [UInt8] {
        precondition(!finished, "a hash is finished once")
        finished = true
        var out = [UInt8](repeating: 0, count: outputLength)
        let rc = out.withUnsafeMutableBytes {
            crypto_generichash_final(
                OpaquePointer(state),
                $0.baseAddress!.assumingMemoryBound(to: UInt8.self),
                outputLength
            )
        }
        precondition(rc == 0, "crypto_generichash_final failed")
        return out
    }
}
