import Foundation
import Logging
import TxLedgerCore
import TxLedgerMembership

/// How a ledger is opened and behaves: `Ledger.Options`.
public struct LedgerOptions: Sendable {
    /// The wall clock that stamps are derived from; tests inject their own.
    public var wallClock: @Sendable () -> Date
    public var logger: Logger
    /// Remote stamps further ahead of the wall clock than this do not advance the clock.
    public var maxForwardDriftMillis: Int64
    /// Open an existing ledger without ever writing to it (e.g. another replica's file to
    /// merge from). Writes then fail with `LedgerError.storage`.
    public var readOnly: Bool
    /// How long a peer not heard from still holds back the default export's deltas
    /// (`ExportScope.knownPeers`): a lost phone must not make every later export a full one.
    public var peerHorizonMillis: Int64
    /// The file is in an App Group container that an app shares with its extensions: the
    /// ledger then honours `Ledger.suspendAll()`, which an app calls as it goes to the
    /// background, so that iOS does not kill it for holding a database lock while suspended
    /// (0xdead10cc); `Ledger.resumeAll()` lets it work again. (GRDB's suspension.)
    public var sharedContainer: Bool
    /// How often observations look for writes by another process (an app extension, a
    /// widget, the CLI) or another `Ledger` on the same file, which GRDB's observation does
    /// not see: milliseconds between two reads of the file's change counter; 0: never.
    public var externalChangesPollMillis: Int64
    /// Where this device keeps its own identity (Specs/devices.md, "Device identity"): the
    /// Keychain, or a file (`FileDeviceKeyStore`); `nil`: the ledger has no device key, and
    /// syncs only vaults sealed with a shared secret.
    public var deviceKeys: (any DeviceKeyStore)?
    /// The name this device takes when it joins a vault with its recovery secret (a sync
    /// does so for an upgraded vault); `nil`: the host's name (`defaultDeviceName`).
    public var deviceName: String?
    /// How long a connection waits for another process's lock (an import holds the write lock
    /// while it merges) before it reports the database as locked: milliseconds, 0 (or less) for
    /// not at all, at most 2^31 - 1 (about 24 days; more is taken as that). Opening waits longer
    /// while another process creating or upgrading the file makes progress (Specs/schema.md,
    /// "Database").
    public var busyTimeoutMillis: Int64
    /// Ten seconds.
    public static let defaultBusyTimeoutMillis: Int64 = 10_000
    /// One second.
    public static let defaultExternalChangesPollMillis: Int64 = 1000
    /// One day: a device whose clock is wrong by hours still syncs its clock forward.
    public static let defaultMaxForwardDriftMillis: Int64 = HybridClock.defaultMaxForwardDriftMillis
    /// The host's name (`gethostname`: no lookup), its first label cut to a name's 64 bytes;
    /// `device` if it has none that is one line of valid UTF-8.
    public static var defaultDeviceName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "device" }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let label = bytes.prefix { $0 != UInt8(ascii: ".") }.prefix(MembershipOperation.maxNameBytes)
        let name = String(decoding: label, as: UTF8.self)
        guard !name.isEmpty, !name.contains("\u{FFFD}"), !name.contains(where: \.isNewline) else { return "device" }
        return name
    }

    /// The name this device joins under.
    package var joiningName: String { deviceName ?? Self.defaultDeviceName }

    /// Thirty days.
    public static let defaultPeerHorizonMillis: Int64 = 30 * 24 * 60 * 60 * 1000

    public init(
        wallClock: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "txledger"),
        maxForwardDriftMillis: Int64 = LedgerOptions.defaultMaxForwardDriftMillis,
        peerHorizonMillis: Int64 = LedgerOptions.defaultPeerHorizonMillis,
        readOnly: Bool = false,
        sharedContainer: Bool = false,
        externalChangesPollMillis: Int64 = LedgerOptions.defaultExternalChangesPollMillis,
        busyTimeoutMillis: Int64 = LedgerOptions.defaultBusyTimeoutMillis,
        deviceKeys: (any DeviceKeyStore)? = nil,
        deviceName: String? = nil
    ) {
        self.deviceKeys = deviceKeys
        self.deviceName = deviceName
        self.readOnly = readOnly
        self.sharedContainer = sharedContainer
        self.externalChangesPollMillis = externalChangesPollMillis
        self.busyTimeoutMillis = busyTimeoutMillis
        self.wallClock = wallClock
        self.logger = logger
        self.maxForwardDriftMillis = maxForwardDriftMillis
        self.peerHorizonMillis = peerHorizonMillis
    }
}
