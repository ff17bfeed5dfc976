/// A hybrid-logical-clock stamp: the moment a register was written, and by which replica.
///
/// `time` packs the physical part (milliseconds since 1970) and a logical counter into one
/// integer, `millis << 16 | counter`, so stamps compare as plain integers in Swift and in SQL,
/// and a counter overflow carries into the next millisecond. Stamps are totally ordered by
/// `(time, replica)`; two replicas never issue equal stamps.
public struct Stamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Bits of `time` that hold the logical counter.
    static let counterBits: Int64 = 16

    public let time: Int64
    public let replica: ReplicaID

    /// The latest time a stamp may carry: just before 3000-01-01T00:00:00Z (the packed time
    /// itself ends in the year 6429). Received stamps outside `0...latestTime` are refused
    /// (Specs/crdt.md), so a local write after one (`time + 1`) can never overflow.
    static let latestTime: Int64 = 32_503_680_000_000 << counterBits - 1

    init(time: Int64, replica: ReplicaID) {
        self.time = time
        self.replica = replica
    }

    init(millis: Int64, counter: Int64 = 0, replica: ReplicaID) {
        self.init(time: millis << Self.counterBits | counter, replica: replica)
    }

    /// A stamp read from outside (a bundle, another replica's file), checked to be between 1970
    /// and 3000; `field` names it in the error.
    package static func received(time: Int64, replica: ReplicaID, field: @autoclosure () -> String) throws -> Stamp {
        guard (0...latestTime).contains(time) else {
            throw LedgerError.invalidInput(field: field(), reason: "stamp time \(time) is not between 1970 and 3000")
        }
        return Stamp(time: time, replica: replica)
    }

    /// Physical part: milliseconds since 1970-01-01T00:00:00Z.
    public var millis: Int64 { Self.millis(ofTime: time) }

    /// The physical part of a packed stamp time (a membership operation's, a removal's cut).
    package static func millis(ofTime time: Int64) -> Int64 { time >> counterBits }

    /// Logical part: how many stamps this replica issued earlier within the same millisecond.
    public var counter: Int64 { time & ((1 << Self.counterBits) - 1) }

    public static func < (lhs: Stamp, rhs: Stamp) -> Bool {
        (lhs.time, lhs.replica) < (rhs.time, rhs.replica)
    }

    /// `millis.counter@replica`, e.g. `1751371200000.3@00f1c2d3e4a5b6c7`.
    public var description: String { "\(millis).\(counter)@\(replica)" }
}
