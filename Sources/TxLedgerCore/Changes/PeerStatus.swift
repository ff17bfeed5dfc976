import Foundation

/// What a replica knows of one peer of one vault: whether the default export waits for it, and
/// how far each holds the other's changes (`Ledger.peers(vault:)`, `txledger peers`).
public struct PeerStatus: Sendable, Equatable {
    public let vault: String
    public let replica: ReplicaID
    /// When a change set from the peer itself was last merged here; `nil` if never (it is known
    /// only through another replica's knowledge). A forgotten peer is not listed at all.
    public let lastHeard: Date?
    /// It holds this replica's changes through this replica's change sequence number.
    public let holdsOursThrough: Int64
    /// This replica holds its changes through its change sequence number.
    public let heldThrough: Int64
    /// Whether the default export waits for it: heard from within the peer horizon.
    public let awaited: Bool
    /// Whether it holds deltas back: awaited, and this replica has made changes it lacks.
    public let holdingBack: Bool
    /// Since when it has not taken this device's files although it keeps syncing (it wrote
    /// change sets twice without them; Specs/crdt.md, "Peers that do not read"); `nil` when
    /// it reads them, or nothing says otherwise.
    public let notReadingOursSince: Date?

    package init(
        vault: String,
        replica: ReplicaID,
        lastHeard: Date?,
        holdsOursThrough: Int64,
        heldThrough: Int64,
        awaited: Bool,
        holdingBack: Bool,
        notReadingOursSince: Date?
    ) {
        self.vault = vault
        self.replica = replica
        self.lastHeard = lastHeard
        self.holdsOursThrough = holdsOursThrough
        self.heldThrough = heldThrough
        self.awaited = awaited
        self.holdingBack = holdingBack
        self.notReadingOursSince = notReadingOursSince
    }
}
