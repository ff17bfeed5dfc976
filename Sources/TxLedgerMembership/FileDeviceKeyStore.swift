import TxLedgerCore

/// A device identity kept in a file of its own, mode 0600, as its seed's printable form
/// (`TXLS1-…` and a line break): the CLI keeps `LEDGER.device-key` beside the ledger. The file
/// is created once and never replaced; it is read and written on a thread of its own.
public struct FileDeviceKeyStore: DeviceKeyStore {
    public let path: String

    public init(path: String) { self.path = path }

    /// - Throws: `BundleError.io` if the file exists but cannot be read,
    ///   `BundleError.invalidKey` if it holds no seed.
    public func load() async throws -> DeviceIdentity? {
        let path = self.path
        return try await DedicatedThread.run { () throws -> DeviceIdentity? in
            guard FileIdentity(path: path, following: true) != nil else { return nil }
            let contents = try SecretFile.read(path, maxBytes: 4096)
            return DeviceIdentity(seed: try contents.withUnsafeBytes(DeviceIdentity.printableSeed.parse))
        }
    }

    /// - Throws: `BundleError.io` if the file exists already or cannot be written.
    public func save(_ identity: DeviceIdentity) async throws {
        let path = self.path
        try await DedicatedThread.run {
            try SecretFile.create(path, bytes: DeviceIdentity.printableSeed.printableBytes(identity.seed))
        }
    }

    /// Whether the file may be read by users other than its owner; callers warn about it.
    public var isExposed: Bool { SecretFile.isExposed(path) }
}
