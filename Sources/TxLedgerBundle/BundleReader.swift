import Foundation
import TxLedgerCore
import TxLedgerMembership
import TxLedgerSodium

/// Opens a bundle and yields its payload, chunk by chunk, only as it authenticates.
///
/// Opening reads the header, derives the keys and checks, in order: the key check (else
/// `wrongSecret`), then the header MAC (else `headerTampered`). Each chunk then either
/// authenticates or the read fails with `payloadTampered`; the end must be exactly the chunk
/// tagged TAG_FINAL (else `truncated` or `trailingData`). A caller that reads to the end has
/// seen every byte of the file authenticated. A format 5 bundle (device keys) is opened with a
/// device's identity through its recipient stanzas; the last 64 bytes of its stream are its
/// author's signature, held back from the payload and checked by `verifySignature(author:)`.
package final class BundleReader {
    private static let chunkBytes = BundleWriter.chunkSize + SecretStreamEncryptor.abytes

    let path: String
    package let header: BundleHeader
    /// The file's size in bytes, and how many have been read.
    package let fileSize: Int
    package private(set) var bytesRead: Int
    /// The keys it was opened with, to open it again.
    package let keys: BundleKeys
    private let file: FileHandle
    private let decryptor: SecretStreamDecryptor
    private var chunkIndex = 0
    private var finished = false
    /// The failure a chunk read ended with.
    private var failure: (any Error)?
    /// Format 5: the stream's last bytes, held back until the stream ends (the signature).
    private var tail: [UInt8] = []
    private let payloadHash: IncrementalHash?
    /// Format 5: the author's signature, once the stream has ended.
    package private(set) var signature: [UInt8]?
    /// Format 5: the payload's hash, once a signature has been checked against it.
    private var payloadDigest: [UInt8]?

    /// Opens `path` with `secret`; a symbolic link at `path` is refused unless `followingLinks`.
    package convenience init(path: String, secret: BundleSecret, followingLinks: Bool = true) throws {
        let (file, header, size) = try Self.openHeader(path, followingLinks: followingLinks)
        guard header.mode == secret.mode else { throw BundleError.secretKindMismatch(bundle: header.mode) }
        let keys = try BundleKeys(secret: secret, salt: header.salt, cost: header.cost)
        try self.init(path: path, file: file, header: header, fileSize: size, keys: keys)
    }

    /// Opens a format 5 bundle `path` as `device`, one of its recipients.
    /// - Throws: `BundleError.secretKindMismatch` for a bundle sealed with a shared secret,
    ///   `BundleError.notARecipient` if no stanza opens with the device's key.
    package convenience init(path: String, device: DeviceIdentity, followingLinks: Bool = true) throws {
        let (file, header, size) = try Self.openHeader(path, followingLinks: followingLinks)
        guard header.mode == .deviceKeys else { throw BundleError.secretKindMismatch(bundle: header.mode) }
        guard let fileKey = header.stanzas?.fileKey(for: device) else { throw BundleError.notARecipient }
        let keys = BundleKeys(fileKey: fileKey, salt: header.salt)
        try self.init(path: path, file: file, header: header, fileSize: size, keys: keys)
    }

    /// Opens the same bundle again with the keys a first reader derived (no second Argon2id
    /// run); its header must still be `expected`.
    package convenience init(
        path: String,
        expecting expected: BundleHeader,
        keys: BundleKeys,
        followingLinks: Bool
    ) throws {
        let (file, header, size) = try Self.openHeader(path, followingLinks: followingLinks)
        guard header == expected else { throw BundleError.io(path: path, reason: "it changed while it was being read") }
        try self.init(path: path, file: file, header: header, fileSize: size, keys: keys)
    }

    private init(path: String, file: FileHandle, header: BundleHeader, fileSize: Int, keys: BundleKeys) throws {
        self.path = path
        self.file = file
        self.header = header
        self.fileSize = fileSize
        self.keys = keys
        bytesRead = header.size
        payloadHash = header.mode == .deviceKeys ? BundleSignature.payloadHash() : nil
        // With device keys, a stanza that opened gave the key: a key check that differs was altered.
        guard keys.opens(header) else {
            throw header.mode == .deviceKeys ? BundleError.headerTampered : BundleError.wrongSecret(header.mode)
        }
        guard keys.authenticates(header) else { throw BundleError.headerTampered }
        decryptor = SecretStreamDecryptor(header: header.streamHeader, key: keys.streamKey)
    }

    deinit { try? file.close() }

    /// The header alone, for what can be shown without a key.
    package static func header(
        of path: String,
        followingLinks: Bool = true
    ) throws -> (header: BundleHeader, fileSize: Int) {
        let (file, header, size) = try openHeader(path, followingLinks: followingLinks)
        try? file.close()
        return (header, size)
    }

    /// Largest file a reader opens: 16 GiB (a bundle of a million records is about 110 MB).
    static let maxFileBytes = 1 << 34

    /// Opens `path` without blocking (a FIFO put in a bundle's place would block a plain open
    /// for ever) and without following a link unless `followingLinks`; the descriptor must be
    /// a regular file of at most `maxFileBytes`.
    private static func openHeader(_ path: String, followingLinks: Bool) throws -> (FileHandle, BundleHeader, Int) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            let cause = errno
            let reason =
                switch cause {
                case ENOENT: "the file does not exist"
                case ELOOP: "it is a symbolic link, which a sync folder's file never is"
                default: "it cannot be read (check its permissions)"
                }
            throw BundleError.io(
                path: path,
                reason: reason,
                underlying: POSIXError(POSIXErrorCode(rawValue: cause) ?? .EIO)
            )
        }
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                throw BundleError.io(path: path, reason: "it is not a regular file (a folder, a FIFO or a device)")
            }
            guard info.st_size <= maxFileBytes else {
                throw BundleError.io(
                    path: path,
                    reason: "it is larger than \(maxFileBytes >> 30) GiB, more than any bundle"
                )
            }
            let size = Int(info.st_size)
            var bytes = try read(file, count: BundleHeader.size, path: path)
            if bytes.count == BundleHeader.size, let whole = BundleHeader.size(ofHeaderStartingWith: bytes),
                whole > bytes.count
            {
                bytes += try read(file, count: whole - bytes.count, path: path)
            }
            let header = try BundleHeader(parsing: bytes)
            return (file, header, size)
        } catch {
            try? file.close()
            throw error
        }
    }

    /// The next chunk's plaintext, or `nil` once the final chunk has been returned and the file
    /// is known to end there.
    /// - Throws: the first failure of the file in stream order (bundle-format.md, "Reading"),
    ///   and that failure again on every later call: a payload decoded ahead of its records
    ///   (`PayloadDecoder`) reports it after a record before it fails, as reading in turn would.
    func nextChunk() throws -> [UInt8]? {
        if let failure { throw failure }
        do {
            return try readChunk()
        } catch {
            failure = error
            throw error
        }
    }

    private func readChunk() throws -> [UInt8]? {
        guard !finished else { return nil }
        let ciphertext = try Self.read(file, count: Self.chunkBytes, path: path)
        bytesRead += ciphertext.count
        guard !ciphertext.isEmpty else { throw BundleError.truncated }
        var plaintext: [UInt8] = []
        guard let tag = ciphertext.withUnsafeBytes({ decryptor.pull($0, into: &plaintext) }) else {
            throw BundleError.payloadTampered(chunk: chunkIndex)
        }
        chunkIndex += 1
        // Authentic, so a writer made it: writers tag chunks MESSAGE or FINAL, never PUSH or REKEY.
        // A chunk that breaks these rules is the file's first failure in stream order: nothing
        // after it is read (bundle-format.md, "Reading", step 6).
        guard tag == SecretStreamTag.message || tag == SecretStreamTag.final else {
            finished = true
            throw BundleError.malformedContent("chunk \(chunkIndex - 1) has tag \(tag), neither MESSAGE nor FINAL")
        }
        if tag == SecretStreamTag.final {
            guard try Self.read(file, count: 1, path: path).isEmpty else { throw BundleError.trailingData }
            finished = true
            // Authentic, so a writer made it: a writer's last chunk holds at least one byte.
            guard !plaintext.isEmpty else { throw BundleError.malformedContent("the final chunk is empty") }
        } else if ciphertext.count < Self.chunkBytes {
            // Authentic, so a writer made it: writers only write full chunks before the final one.
            finished = true
            throw BundleError.malformedContent("chunk \(chunkIndex - 1) is shorter than a full chunk but not final")
        }
        guard let payloadHash else { return plaintext }
        return try heldBack(plaintext, final: tag == SecretStreamTag.final, hash: payloadHash)
    }

    /// Format 5: `plaintext` without the stream's last 64 bytes, which are the signature; what
    /// is released is hashed.
    private func heldBack(_ plaintext: [UInt8], final: Bool, hash: IncrementalHash) throws -> [UInt8] {
        var bytes = tail + plaintext
        let keep = min(SigningKeyPair.signatureCount, bytes.count)
        tail = Array(bytes.suffix(keep))
        bytes.removeLast(keep)
        if final {
            // Authentic, so a writer made it: a writer's payload is never empty.
            guard tail.count == SigningKeyPair.signatureCount, chunkIndex > 1 || !bytes.isEmpty else {
                throw BundleError.malformedContent("the stream ends without a payload and its signature")
            }
            signature = tail
            tail = []
        }
        hash.update(bytes)
        return bytes
    }

    /// Format 5: whether the signature that ended the stream is `author`'s over the header and
    /// the payload; `false` until the stream has been read to its end.
    package func verifySignature(author: PublicIdentity) -> Bool {
        guard let signature, let payloadHash else { return false }
        if payloadDigest == nil { payloadDigest = payloadHash.finish() }
        guard let payloadDigest else { return false }
        return BundleSignature.verify(signature, header: header.bytes, payloadHash: payloadDigest, author: author)
    }

    /// Reads and authenticates every chunk left, for a caller that stops decoding early: a
    /// failure of the file itself (a damaged or missing chunk, trailing data) is reported
    /// before one of its content (bundle-format.md, "Reading").
    func authenticateRest() throws {
        while try nextChunk() != nil {}
    }

    /// Up to `count` bytes, fewer only at the end of the file.
    private static func read(_ file: FileHandle, count: Int, path: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        do {
            while bytes.count < count, let data = try file.read(upToCount: count - bytes.count), !data.isEmpty {
                bytes.append(contentsOf: data)
            }
        } catch {
            throw BundleError.io(
                path: path,
                reason: "it cannot be read (\(error.localizedDescription))",
                underlying: error
            )
        }
        return bytes
    }
}
