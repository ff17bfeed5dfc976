#if canImport(Clibsodium)
internal import Clibsodium
#else
internal import CSodium
#endif

/// Encrypts a stream of messages with `crypto_secretstream_xchacha20poly1305`: each message
/// comes out `abytes` longer, authenticated and bound to its position; the last one carries
/// TAG_FINAL. Owns the C state and wipes it when released.
package final class SecretStreamEncryptor {
    static var headerBytes: Int { Int(crypto_secretstream_xchacha20poly1305_headerbytes()) }
    package static var abytes: Int { Int(crypto_secretstream_xchacha20poly1305_abytes()) }
    package static var keyBytes: Int { Int(crypto_secretstream_xchacha20poly1305_keybytes()) }

    private var state: crypto_secretstream_xchacha20poly1305_state
    /// The stream header (random nonce material) a decryptor needs.
    package let header: [UInt8]

    package init(key: SecretBytes) {
        Sodium.ensureInitialized()
        precondition(key.count == Self.keyBytes)
        var header = [UInt8](repeating: 0, count: Self.headerBytes)
        var state = crypto_secretstream_xchacha20poly1305_state()
        let rc = key.withUnsafeBytes { key in
            crypto_secretstream_xchacha20poly1305_init_push(
                &state,
                &header,
                key.baseAddress!.assumingMemoryBound(to: UInt8.self)
            )
        }
        precondition(rc == 0, "crypto_secretstream_xchacha20poly1305_init_push failed")
        self.state = state
        withUnsafeMutableBytes(of: &state) { Sodium.wipe($0) }
        self.header = header
    }

    deinit { withUnsafeMutableBytes(of: &state) { Sodium.wipe($0) } }

    /// The ciphertext of `message`, appended to `output`.
    package func push(_ message: UnsafeRawBufferPointer, final: Bool, into output: inout [UInt8]) {
        push(message, tag: final ? SecretStreamTag.final : SecretStreamTag.message, into: &output)
    }

    /// The ciphertext of `message` with any tag (writers use `message` and `final` only;
    /// tests make the others).
    func push(_ message: UnsafeRawBufferPointer, tag: UInt8, into output: inout [UInt8]) {
        let start = output.count
        // Room for the ciphertext, zeroed from an array: appending a `repeatElement` went a byte
        // at a time where the standard library is not optimized (debug builds, whose tests seal
        // bundles of hundreds of megabytes).
        output += [UInt8](repeating: 0, count: message.count + Self.abytes)
        let rc = output.withUnsafeMutableBufferPointer { out in
            crypto_secretstream_xchacha20poly1305_push(
                &state,
                out.baseAddress! + start,
                nil,
                message.baseAddress?.assumingMemoryBound(to: UInt8.self),
                UInt64(message.count),
                nil,
                0,
                tag
            )
        }
        precondition(rc == 0, "crypto_secretstream_xchacha20poly1305_push failed")
    }
}

/// Decrypts what `SecretStreamEncryptor` produced, message by message, and says which one
/// carried TAG_FINAL. Owns the C state and wipes it when released.
package final class SecretStreamDecryptor {
    private var state = crypto_secretstream_xchacha20poly1305_state()

    package init(header: [UInt8], key: SecretBytes) {
        Sodium.ensureInitialized()
        precondition(header.count == SecretStreamEncryptor.headerBytes && key.count == SecretStreamEncryptor.keyBytes)
        // init_pull only fails for sizes, which are checked above.
        let rc = key.withUnsafeBytes { key in
            crypto_secretstream_xchacha20poly1305_init_pull(
                &state,
                header,
                key.baseAddress!.assumingMemoryBound(to: UInt8.self)
            )
        }
        precondition(rc == 0, "crypto_secretstream_xchacha20poly1305_init_pull failed")
    }

    deinit { withUnsafeMutableBytes(of: &state) { Sodium.wipe($0) } }

    /// Decrypts the next message into `plaintext` and gives its tag (`SecretStreamTag`), or
    /// returns `nil` if it does not authenticate (altered, reordered, cut, or another key).
    package func pull(_ ciphertext: UnsafeRawBufferPointer, into plaintext: inout [UInt8]) -> UInt8? {
        guard ciphertext.count >= SecretStreamEncryptor.abytes else { return nil }
        plaintext = [UInt8](repeating: 0, count: ciphertext.count - SecretStreamEncryptor.abytes)
        var tag: UInt8 = 0
        let rc = plaintext.withUnsafeMutableBufferPointer { out in
            crypto_secretstream_xchacha20poly1305_pull(
                &state,
                out.baseAddress,
                nil,
                &tag,
                ciphertext.baseAddress!.assumingMemoryBound(to: UInt8.self),
                UInt64(ciphertext.count),
                nil,
                0
            )
        }
        guard rc == 0 else { return nil }
        return tag
    }
}

/// The tags of `crypto_secretstream_xchacha20poly1305` messages.
package enum SecretStreamTag {
    package static var message: UInt8 { UInt8(crypto_secretstream_xchacha20poly1305_tag_message()) }
    static var push: UInt8 { UInt8(crypto_secretstream_xchacha20poly1305_tag_push()) }
    static var rekey: UInt8 { UInt8(crypto_secretstream_xchacha20poly1305_tag_rekey()) }
    package static var final: UInt8 { UInt8(crypto_secretstream_xchacha20poly1305_tag_final()) }
}
