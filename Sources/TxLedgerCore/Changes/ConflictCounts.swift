/// How many conflicts a merge met (registers both sides wrote with different values), by
/// register, each counted whether `MergeReport.conflicts` lists it or not.
public struct ConflictCounts: Sendable, Equatable, Codable {
    public var facts = 0
    public var status = 0
    public var inferred = 0
    public var note = 0
    public var labels = 0
    public var hidden = 0

    public init() {}

    /// Every conflict counted.
    public var total: Int { facts + status + inferred + note + labels + hidden }

    /// The registers with at least one conflict and their counts, by register name
    /// (`MergeConflict.register`) in that order.
    public var byRegister: [(register: String, count: Int)] {
        [
            ("facts", facts), ("status", status), ("inferred", inferred), ("note", note), ("labels", labels),
            ("hidden", hidden),
        ]
        .filter { $0.1 > 0 }
    }

    /// Adds another merge's counts to these.
    mutating func add(_ other: ConflictCounts) {
        facts += other.facts
        status += other.status
        inferred += other.inferred
        note += other.note
        labels += other.labels
        hidden += other.hidden
    }
}
