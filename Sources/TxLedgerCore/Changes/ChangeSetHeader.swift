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
    /// The epoch of each knowledge entry's change, where the origin knows it.
    public let knowledgeEpochs: [ReplicaID: EpochID]
    /// The origin's epochs from the one holding `since` (the one holding `through` for a full
    /// change set) to its current one, oldest first; `nil` in a change set of bundle format 1 or
    /// 2, which has no epochs (crdt.md, "Restored and cloned files").
    public let lineage: [Epoch]?
    /// The vault's clear watermark at the origin.
    public let clearedThrough: Stamp?

    package init(
        vaultId: String,
        origin: ReplicaID,
        since: Int64,
        through: Int64,
        knowledge: [ReplicaID: Int64],
        knowledgeEpochs: [ReplicaID: EpochID] = [:],
        lineage: [Epoch]? = nil,
        clearedThrough: Stamp?
    ) {
        self.vaultId = vaultId
        self.origin = origin
        self.since = since
        self.through = through
        self.knowledge = knowledge
        self.knowledgeEpochs = knowledgeEpochs
        self.lineage = lineage
        self.clearedThrough = clearedThrough
    }

    /// Most epochs a lineage may list (and most entries a knowledge list may have).
    package static let maxEpochs = 1 << 16

    /// Whether it carries the whole vault rather than a delta.
    public var isFull: Bool { since == 0 }
}
