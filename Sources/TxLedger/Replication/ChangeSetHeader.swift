/// What a change set says before its records: which vault, which replica produced it, which of
/// that replica's changes it covers, what that replica knows, and the vault's clear watermark.
public struct ChangeSetHeader: Sendable, Equatable {
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

    public init(vaultId: String, origin: ReplicaID, since: Int64, through: Int64,
                knowledge: [ReplicaID: Int64], clearedThrough: Stamp?) {
        self.vaultId = vaultId
        self.origin = origin
        self.since = since
        self.through = through
        self.knowledge = knowledge
        self.clearedThrough = clearedThrough
    }

    /// Whether it carries the whole vault rather than a delta.
    public var isFull: Bool { since == 0 }
}
