/// What one replica sends another about one vault: register states with their stamps, the
/// vault's clear watermark, and what the sender knows, so the receiver can reply with a delta.
///
/// A change set holds every row of the vault that the sender changed after its change sequence
/// number `since` (0: all of them, a full export), up to `through`.
public struct ChangeSet: Sendable, Equatable {
    public let vaultId: String
    /// The replica that produced it.
    public let origin: ReplicaID
    /// The origin's change sequence number this change set starts after (0 for a full export).
    public let since: Int64
    /// The origin's change sequence number when it was produced.
    public let through: Int64
    /// For each other replica, up to which of that replica's change sequence numbers the origin
    /// holds its changes of this vault (the origin's knowledge).
    public let knowledge: [ReplicaID: Int64]
    /// The vault's clear watermark at the origin.
    public let clearedThrough: Stamp?
    let records: [RecordState]

    /// How many records (visible or not) it carries.
    public var recordCount: Int { records.count }

    /// Whether it carries the whole vault rather than a delta.
    public var isFull: Bool { since == 0 }
}
