import TxLedgerCore
import TxLedgerSodium

/// A vault sync key: 32 random bytes from libsodium that seal and open a vault's bundles.
///
/// Generated once (`generate()`, `txledger keygen`) and shared between a user's devices as a
/// key file or as the same printable text, which carries a checksum so that a mistyped key is
/// caught before any decryption is tried:
///
///     TXLK1-7ZQ4M-...-K3P0A        (prefix, then 60 Crockford base32 symbols in groups of 5)
///
/// The symbols encode the 32 key bytes followed by the first 5 bytes of BLAKE2b-128(key).
/// Case, spaces, dashes and line breaks do not matter; `O` reads as `0`, `I` and `L` as `1`.
/// The bytes live in `SecretBytes` and are wiped when the key is released.
public struct SyncKey: Sendable {
    static let byteCount = PrintableSecret.byteCount
    /// The printable form's prefix and codec.
    static let printable = PrintableSecret(prefix: "TXLK1")

    let secret: SecretBytes

    init(secret: SecretBytes) {
        precondition(secret.count == Self.byteCount)
        self.secret = secret
    }

    /// A new random key from libsodium's CSPRNG.
    public static func generate() -> SyncKey {
        SyncKey(secret: .random(count: byteCount))
    }

    /// Parses the printable form.
    /// - Throws: `BundleError.invalidKey` if it is malformed or its checksum does not match.
    public init(printable text: String) throws {
        var bytes = Array(text.utf8)
        defer { bytes.withUnsafeMutableBytes(Sodium.wipe) }
        self = try bytes.withUnsafeBytes(Self.parse)
    }

    /// Reads a key file (the printable form, as `write(toNewFile:)` writes it).
    public init(contentsOfFile path: String) throws {
        let contents = try SecretFile.read(path, maxBytes: 4096)
        self = try contents.withUnsafeBytes(Self.parse)
    }

    /// Reads a key file as `init(contentsOfFile:)` does, on a thread of its own (file I/O never
    /// blocks an actor or Swift's cooperative threads).
    public static func load(contentsOfFile path: String) async throws -> SyncKey {
        try await DedicatedThread.run { try SyncKey(contentsOfFile: path) }
    }

    /// Creates a key file with mode 0600 holding the printable form and a line break. An
    /// existing file is never replaced.
    public func write(toNewFile path: String) throws {
        try SecretFile.create(path, bytes: printableBytes())
    }

    /// Whether a key file may be read by users other than its owner (its mode is not 0600 or
    /// stricter); callers warn about it.
    public static func isExposed(file path: String) -> Bool {
        SecretFile.isExposed(path)
    }

    // MARK: - Printable form

    /// The printable form (`TXLK1-…`, without a line break), for an app to keep in the
    /// Keychain or to show as a QR code; `init(printable:)` reads it back. It is the key itself:
    /// never log it (a key's `description` never shows it).
    public func printableText() -> String {
        printableBytes().withUnsafeBytes { String(decoding: $0.dropLast(), as: UTF8.self) }
    }

    /// The printable form and a line break, as secret bytes.
    func printableBytes() -> SecretBytes { Self.printable.printableBytes(secret) }

    private static func parse(_ text: UnsafeRawBufferPointer) throws -> SyncKey {
        SyncKey(secret: try printable.parse(text))
    }
}
