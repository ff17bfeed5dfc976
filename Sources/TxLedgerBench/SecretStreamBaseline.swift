#if canImport(Clibsodium)
import Clibsodium
#else
import CSodium
#endif

/// The crypto limit of a bundle: libsodium's `crypto_secretstream_xchacha20poly1305` over the
/// same number of bytes, in the bundle's 64 KiB chunks, from memory to memory.
enum SecretStreamBaseline {
    static let chunkSize = 64 * 1024

    /// Median seconds of `runs` encryptions of `byteCount` bytes.
    static func seconds(encrypting byteCount: Int, runs: Int = 5) async -> Double {
        precondition(sodium_init() >= 0)
        let plaintext = [UInt8](repeating: 0x5A, count: chunkSize)
        var key = [UInt8](repeating: 0, count: Int(crypto_secretstream_xchacha20poly1305_keybytes()))
        crypto_secretstream_xchacha20poly1305_keygen(&key)
        var header = [UInt8](repeating: 0, count: Int(crypto_secretstream_xchacha20poly1305_headerbytes()))
        var ciphertext = [UInt8](repeating: 0, count: chunkSize + Int(crypto_secretstream_xchacha20poly1305_abytes()))
        return await Stopwatch.median(runs: runs) {
            var state = crypto_secretstream_xchacha20poly1305_state()
            crypto_secretstream_xchacha20poly1305_init_push(&state, &header, key)
            var remaining = byteCount
            repeat {
                let count = min(remaining, chunkSize)
                remaining -= count
                let tag =
                    remaining == 0
                    ? crypto_secretstream_xchacha20poly1305_tag_final()
                    : crypto_secretstream_xchacha20poly1305_tag_message()
                crypto_secretstream_xchacha20poly1305_push(
                    &state,
                    &ciphertext,
                    nil,
                    plaintext,
                    UInt64(count),
                    nil,
                    0,
                    UInt8(tag)
                )
            } while remaining > 0
        }
    }
}
