/// One stretch of a replica's change sequence numbers, written by one process of one copy of
/// its file (Specs/crdt.md, "Restored and cloned files"). A process takes a fresh epoch before
/// its first change, so a file restored from a backup or copied to another device never numbers
/// new changes under an epoch that a peer has already seen: a peer's claim names the epoch of
/// the change it holds, and a replica accepts only claims it can find in its own epochs.
///
/// 63 random bits, never 0, written as 16 hex digits like a replica id.
public struct EpochID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int64

    package init(rawValue: Int64) {
        precondition(rawValue > 0, "epoch ids are positive")
        self.rawValue = rawValue
    }

    package static func random() -> EpochID {
        while true {
            let value = ReplicaID.random().rawValue
            if value > 0 { return EpochID(rawValue: value) }
        }
    }

    public var description: String { ReplicaID(rawValue: rawValue).description }
}

/// Where an epoch starts: its first change sequence number.
public struct Epoch: Hashable, Sendable {
    public let id: EpochID
    public let firstSeq: Int64

    package init(id: EpochID, firstSeq: Int64) {
        self.id = id
        self.firstSeq = firstSeq
    }
}
