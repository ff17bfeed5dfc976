import Foundation

/// A peer that keeps syncing a vault but has not taken this device's files (Specs/crdt.md,
/// "Peers that do not read"): what `Ledger.sync` reports so that an app can show "not synced
/// with Tablet since Monday".
public struct PeerLag: Sendable, Equatable, Encodable {
    public let replica: ReplicaID
    /// Its device's name, where the vault's devices name it.
    public let device: String?
    /// When this device wrote the first file the peer has not taken.
    public let since: Date

    package init(replica: ReplicaID, device: String?, since: Date) {
        self.replica = replica
        self.device = device
        self.since = since
    }

    private enum Key: String, CodingKey { case replica, device, since }

    /// `since` as ISO 8601 text in UTC, as every instant of the JSON outputs.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(replica, forKey: .replica)
        try container.encodeIfPresent(device, forKey: .device)
        try container.encode(ISO8601.string(from: since), forKey: .since)
    }
}
