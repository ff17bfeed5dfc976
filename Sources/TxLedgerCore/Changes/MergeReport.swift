/// What merging change sets did to a replica.
public struct MergeReport: Sendable, Equatable, Codable {
    /// Records that were not visible here before and are now.
    public var recordsAdded = 0
    /// Records that were visible and had at least one register change.
    public var recordsChanged = 0
    /// Records received that changed nothing here.
    public var recordsUnchanged = 0
    /// Records visible here that a clear from another device took away (crdt.md, "Clearing a
    /// vault"); `clears` says by which clears.
    public var recordsCleared = 0
    /// Per clear from another device, the records it took away here: restorable for 30 days.
    /// At most `ClearReport.maxListed` clears are listed; `recordsCleared` counts them all.
    public var clears: [ClearReport] = []
    /// Records whose registers, written by a device removed from the vault after its cut, did
    /// not count and were set aside (Specs/devices.md, "What counts as a member's write").
    public var writesSetAside = 0
    /// Registers (facts, status parts, lastCheckedAt, note, labels, hidden) that took the received value.
    public var registersUpdated = 0
    /// Registers whose local value was kept.
    public var registersUnchanged = 0
    /// Stamps more than the allowed drift ahead of this machine's clock: kept as data, but they
    /// did not advance the clock (see Specs/crdt.md).
    public var futureStamps = 0
    /// Places where both sides had written different values and one was chosen: the first
    /// `MergeConflict.maxListed`, in the order they were merged (a file that conflicts on every
    /// record would otherwise make the report as large as the file). `conflictCounts` counts
    /// them all.
    public var conflicts: [MergeConflict] = []
    /// Every conflict, listed or not, by register.
    public var conflictCounts = ConflictCounts()
    /// Deltas that start after changes this replica does not hold: their records were merged,
    /// but what came before them is still missing here (crdt.md, "Gaps").
    public var gaps: [DeltaGap] = []
    /// The new replica id this file took because it found it was restored from a backup or
    /// copied to another device (crdt.md, "Restored and cloned files"), if it did.
    public var newReplicaID: ReplicaID?
    /// Per vault, how many peers this replica stopped remembering because it knew more than it
    /// keeps, or had not heard from one for a year (crdt.md, "Limits of knowledge").
    public var peersDropped: [String: Int] = [:]

    public init() {}

    /// Whether the merge changed this replica at all.
    public var changedAnything: Bool { recordsAdded + recordsChanged + recordsCleared > 0 }

    /// Adds another report's counts and conflicts to this one, in place (a merge adds one
    /// report per record: copying the conflicts each time would be quadratic).
    package mutating func add(_ other: MergeReport) {
        recordsAdded += other.recordsAdded
        recordsChanged += other.recordsChanged
        recordsUnchanged += other.recordsUnchanged
        recordsCleared += other.recordsCleared
        for clear in other.clears { count(clear) }
        writesSetAside += other.writesSetAside
        registersUpdated += other.registersUpdated
        registersUnchanged += other.registersUnchanged
        futureStamps += other.futureStamps
        conflicts.append(contentsOf: other.conflicts.prefix(MergeConflict.maxListed - conflicts.count))
        conflictCounts.add(other.conflictCounts)
        gaps.append(contentsOf: other.gaps)
        newReplicaID = other.newReplicaID ?? newReplicaID
        peersDropped.merge(other.peersDropped, uniquingKeysWith: +)
    }

    /// Counts `clear`'s records, with those of the same clear already counted.
    package mutating func count(_ clear: ClearReport) { clears.count(clear) }
}

/// A delta from `origin` of its changes after `since`, merged into a replica that holds the
/// origin's changes only through `heldThrough` (0: none): the changes in between are missing
/// until the origin sends them (`export --full`, or its next delta once it has heard from here).
public struct DeltaGap: Sendable, Equatable, Codable {
    public let vault: String
    public let origin: ReplicaID
    public let since: Int64
    public let heldThrough: Int64

    package init(vault: String, origin: ReplicaID, since: Int64, heldThrough: Int64) {
        self.vault = vault
        self.origin = origin
        self.since = since
        self.heldThrough = heldThrough
    }
}

/// Both replicas wrote one register of a record with different values; the join kept one.
public struct MergeConflict: Sendable, Equatable, Codable {
    /// Conflicts a `MergeReport` lists at most.
    public static let maxListed = 1000

    public let id: TransactionID
    /// `facts`, `status`, `note`, `labels` or `hidden`.
    public let register: String
    /// The value that was kept, and the one that lost, as short text (e.g. `failed`, `confirmed`).
    public let kept: String
    public let discarded: String
    /// Whether the kept value is the one received (`true`) or the local one.
    public let keptReceived: Bool

    package init(id: TransactionID, register: String, kept: String, discarded: String, keptReceived: Bool) {
        self.id = id
        self.register = register
        self.kept = kept
        self.discarded = discarded
        self.keptReceived = keptReceived
    }
}

extension TransactionID: Codable {
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = TransactionID(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a transaction id")
            )
        }
        self = id
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
