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

    /// Each register's name (`MergeConflict.register`) and its count, in this order: the one
    /// list of them.
    package static let registers: [(name: String, count: WritableKeyPath<ConflictCounts, Int> & Sendable)] = [
        ("facts", \.facts), ("status", \.status), ("inferred", \.inferred), ("note", \.note), ("labels", \.labels),
        ("hidden", \.hidden),
    ]

    /// The registers with at least one conflict and their counts, by register name, in the
    /// order of `registers`.
    public var byRegister: [(register: String, count: Int)] {
        Self.registers.map { ($0.name, self[keyPath: $0.count]) }.filter { $0.1 > 0 }
    }

    /// The name of the register `count` counts.
    package static func name(of count: WritableKeyPath<ConflictCounts, Int>) -> String {
        // Every counter is in `registers`.
        registers.first { $0.count == count }!.name
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
