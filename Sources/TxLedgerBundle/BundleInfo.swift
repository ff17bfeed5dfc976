import TxLedgerCore
import TxLedgerSodium

/// What a bundle is: what its header shows to anyone, and, read with its secret, which change
/// set it carries.
public struct BundleInfo: Sendable, Equatable {
    public var formatVersion: Int { Int(header.version) }
    public var keyMode: KeyMode { header.mode }
    /// The Argon2id cost of a passphrase bundle.
    public var passphraseCost: Argon2idCost? { header.cost }
    /// The file's size in bytes.
    public let byteCount: Int
    /// The change set's header, read with the secret; `nil` when read without.
    public let changes: ChangeSetHeader?
    /// How many records it carries, read with the secret.
    public let recordCount: Int?
    /// The header it was read from.
    let header: BundleHeader

    package init(header: BundleHeader, byteCount: Int, changes: ChangeSetHeader?, recordCount: Int?) {
        self.header = header
        self.byteCount = byteCount
        self.changes = changes
        self.recordCount = recordCount
    }

    /// What the header of the bundle at `path` shows without a secret: its format version, key
    /// mode and size.
    /// - Throws: `BundleError` if it is not a bundle this version reads, or cannot be read.
    public init(contentsOf path: String) throws {
        let (header, size) = try BundleReader.header(of: path)
        self.init(header: header, byteCount: size, changes: nil, recordCount: nil)
    }

    /// Reads the whole bundle at `path` with `secret`: every chunk is authenticated and every
    /// record decoded and validated, and nothing is written anywhere.
    /// - Throws: `BundleError` saying what is wrong (wrong secret, tampered, truncated...).
    public init(
        contentsOf path: String,
        secret: BundleSecret,
        progress: (@Sendable (BundleProgress) -> Void)? = nil
    ) throws {
        self = try Self.verify(BundleReader(path: path, secret: secret), progress: progress)
    }

    /// Reads the whole bundle at `path` with `secret` as `init(contentsOf:secret:progress:)`
    /// does, on a thread of its own: Argon2id and reading a large file never block an actor
    /// (the main actor among them) or Swift's cooperative threads.
    public static func read(
        contentsOf path: String,
        secret: BundleSecret,
        progress: (@Sendable (BundleProgress) -> Void)? = nil
    ) async throws -> BundleInfo {
        try await DedicatedThread.run { try BundleInfo(contentsOf: path, secret: secret, progress: progress) }
    }

    /// Reads `reader` to its end, decoding every record.
    static func verify(
        _ reader: BundleReader,
        progress: (@Sendable (BundleProgress) -> Void)?
    ) throws -> BundleInfo {
        var decoder = try PayloadDecoder(reader)
        // Bound and dropped: comparing the record with `nil` destroyed each one through its
        // metadata (`callgrind` of `inspect` of 20k records: 921.3M instructions, 883.3M without).
        while let _ = try decoder.next() {
            if decoder.recordCount % BundleProgress.recordInterval == 0 {
                progress?(BundleProgress(phase: .verifying, completed: reader.bytesRead, total: reader.fileSize))
            }
        }
        progress?(BundleProgress(phase: .verifying, completed: reader.fileSize, total: reader.fileSize))
        return BundleInfo(
            header: reader.header,
            byteCount: reader.fileSize,
            changes: decoder.header,
            recordCount: decoder.recordCount
        )
    }
}

/// How far a long export or import has come, for a progress line.
public struct BundleProgress: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        /// Writing a bundle; counts are records.
        case exporting
        /// Reading a bundle whole without writing anything (`BundleInfo.read`); counts are bytes.
        case verifying
        /// Importing a bundle: reading, authenticating and merging it in one transaction;
        /// counts are bytes.
        case merging
    }

    /// How many records pass between two reports.
    package static let recordInterval = 1000

    public let phase: Phase
    public let completed: Int
    public let total: Int

    package init(phase: Phase, completed: Int, total: Int) {
        self.phase = phase
        self.completed = completed
        self.total = total
    }
}
