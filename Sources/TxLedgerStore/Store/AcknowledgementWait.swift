/// A change of this replica that a peer has not acknowledged (crdt.md, "Peers that do not
/// read"): the `through` of a file this device wrote for the peer's vault, when it was
/// written, and how many times since the peer wrote changes of its own without taking it. A
/// peer that keeps syncing takes a file it can read at its next sync and says so in its next
/// change set; after two of its change sets that do not, it is not reading this device's files.
package struct AcknowledgementWait: Sendable, Equatable {
    /// This replica's change number the peer is waited on to hold.
    package let seq: Int64
    /// When this device wrote it, by its clock (milliseconds).
    package let sinceMillis: Int64
    /// The peer's change number this replica held when it last counted.
    package var theirSeq: Int64
    /// How many of the peer's newer change sets arrived without it.
    package var advances: Int

    /// Change sets of the peer that may arrive without it before the peer counts as not
    /// reading: one may have been written before the file was in the folder.
    package static let tolerated = 1

    package init(seq: Int64, sinceMillis: Int64, theirSeq: Int64) {
        self.seq = seq
        self.sinceMillis = sinceMillis
        self.theirSeq = theirSeq
        advances = 0
    }

    init(seq: Int64, sinceMillis: Int64, theirSeq: Int64, advances: Int) {
        self.seq = seq
        self.sinceMillis = sinceMillis
        self.theirSeq = theirSeq
        self.advances = advances
    }

    /// Whether the peer is not reading: it wrote more change sets without it than tolerated.
    package var isOverdue: Bool { advances > Self.tolerated }
}
