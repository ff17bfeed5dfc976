import Foundation
import TxLedgerCore
import TxLedgerMembership
import TxLedgerSodium

/// Writes a bundle: the header, then the payload bytes it is given, encrypted with
/// `crypto_secretstream_xchacha20poly1305` in chunks of `chunkSize` plaintext bytes, the last
/// one (1 to `chunkSize` bytes) tagged TAG_FINAL. A format 5 bundle (device keys) is sealed
/// for its recipients, and its author's signature follows the payload in the same stream
/// (Specs/devices.md, "Format 5").
///
/// It writes an `AtomicFile` that `finish()` renames into place, so a sync folder never shows
/// a half-written bundle; without `finish()` nothing appears.
package final class BundleWriter {
    /// Plaintext bytes per chunk (Specs/bundle-format.md): the same in every format.
    package static let chunkSize = 65536

    let path: String
    package let header: BundleHeader
    private let file: AtomicFile
    private let encryptor: SecretStreamEncryptor
    private var pending: [UInt8] = []
    private var output: [UInt8] = []
    /// Format 5: who signs, and the hash of the payload written so far.
    private let author: DeviceIdentity?
    private let payloadHash: IncrementalHash?
    /// Bytes written to the file so far.
    private(set) var bytesWritten = 0

    /// A bundle sealed with a shared secret.
    /// - Parameters:
    ///   - version: the format the caller's payload is encoded in (an older one only to test readers).
    ///   - protected: files the bundle must never replace (`AtomicFile`).
    package convenience init(
        path: String,
        secret: BundleSecret,
        cost: Argon2idCost,
        version: UInt8 = BundleHeader.currentVersion,
        sparing protected: [String] = []
    ) throws {
        let salt = Sodium.randomBytes(BundleHeader.saltBytes)
        let cost: Argon2idCost? = secret.mode == .passphrase ? cost : nil
        try self.init(
            path: path,
            keys: try BundleKeys(secret: secret, salt: salt, cost: cost),
            seal: { keys, streamHeader in
                keys.seal(version: version, mode: secret.mode, cost: cost, salt: salt, streamHeader: streamHeader)
            },
            author: nil,
            sparing: protected
        )
    }

    /// A format 5 bundle: a new file key sealed for each of `recipients`, the payload signed by
    /// `author` (Specs/devices.md, "Format 5").
    package convenience init(
        path: String,
        author: DeviceIdentity,
        recipients: [PublicIdentity],
        sparing protected: [String] = []
    ) throws {
        let salt = Sodium.randomBytes(BundleHeader.saltBytes)
        let fileKey = SecretBytes.random(count: RecipientStanzas.fileKeyBytes)
        let stanzas = RecipientStanzas(sealing: fileKey, for: recipients)
        try self.init(
            path: path,
            keys: BundleKeys(fileKey: fileKey, salt: salt),
            seal: { keys, streamHeader in
                keys.seal(
                    version: BundleHeader.currentVersion,
                    mode: .deviceKeys,
                    cost: nil,
                    salt: salt,
                    streamHeader: streamHeader,
                    stanzas: stanzas
                )
            },
            author: author,
            sparing: protected
        )
    }

    private init(
        path: String,
        keys: BundleKeys,
        seal: (BundleKeys, [UInt8]) -> BundleHeader,
        author: DeviceIdentity?,
        sparing protected: [String]
    ) throws {
        self.path = path
        encryptor = SecretStreamEncryptor(key: keys.streamKey)
        header = seal(keys, encryptor.header)
        self.author = author
        payloadHash = author.map { _ in BundleSignature.payloadHash() }
        do {
            file = try AtomicFile(path: path, sparing: protected, mode: AtomicFile.umasked)
        } catch {
            throw BundleError.io(path: path, reason: error.reason, underlying: error.underlying)
        }
        try emit(header.bytes)
    }

    /// Appends payload bytes; full chunks are encrypted and written as they fill.
    package func write(_ bytes: [UInt8]) throws {
        payloadHash?.update(bytes)
        pending.append(contentsOf: bytes)
        // A full chunk goes out only once a byte follows it: the final chunk is never empty.
        guard pending.count > Self.chunkSize else { return }
        var start = 0
        while pending.count - start > Self.chunkSize {
            pending.withUnsafeBytes { bytes in
                encryptor.push(
                    UnsafeRawBufferPointer(rebasing: bytes[start..<start + Self.chunkSize]),
                    final: false,
                    into: &output
                )
            }
            start += Self.chunkSize
        }
        pending.removeFirst(start)
        try emit()
    }

    /// Writes the final chunk, flushes the file to disk and renames it into place.
    /// - Returns: the bundle's size in bytes.
    package func finish() throws -> Int {
        precondition(!pending.isEmpty, "a payload is never empty")
        if let author, let payloadHash {
            // Format 5: the signature follows the payload in the stream, chunked with it.
            pending += BundleSignature.sign(header: header.bytes, payloadHash: payloadHash.finish(), by: author)
            if pending.count > Self.chunkSize {
                pending.withUnsafeBytes {
                    encryptor.push(
                        UnsafeRawBufferPointer(rebasing: $0.prefix(Self.chunkSize)),
                        final: false,
                        into: &output
                    )
                }
                pending.removeFirst(Self.chunkSize)
            }
        }
        pending.withUnsafeBytes { encryptor.push($0, final: true, into: &output) }
        pending = []
        try emit()
        do {
            try file.commit()
        } catch {
            throw BundleError.io(path: path, reason: error.reason, underlying: error.underlying)
        }
        return bytesWritten
    }

    private func emit(_ bytes: [UInt8] = []) throws {
        output.append(contentsOf: bytes)
        do {
            try file.write(output)
        } catch {
            throw BundleError.io(path: path, reason: error.reason, underlying: error.underlying)
        }
        bytesWritten += output.count
        output.removeAll(keepingCapacity: true)
    }
}
