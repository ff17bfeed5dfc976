/// A last-writer-wins register: a value and the stamp of the write that set it. The join keeps
/// the value with the greater stamp, and between two values under one stamp the one with the
/// greater `tieBreakKey` (Specs/crdt.md, "Equal stamps"); that order is total, so the join is
/// commutative, associative and idempotent.
public struct Register<Value: Hashable & Sendable>: Hashable, Sendable {
    public let value: Value
    public let stamp: Stamp

    public init(_ value: Value, stamp: Stamp) {
        self.value = value
        self.stamp = stamp
    }
}

extension Register where Value: TieBreakable {
    func joined(with other: Register) -> Register {
        if other.stamp != stamp { return other.stamp > stamp ? other : self }
        return value.tieBreakKey.lexicographicallyPrecedes(other.value.tieBreakKey) ? other : self
    }
}

extension Optional {
    /// Join of two optional registers (a missing register is the bottom element).
    func joined<V: TieBreakable>(with other: Register<V>?) -> Register<V>? where Wrapped == Register<V> {
        guard let self else { return other }
        guard let other else { return self }
        return self.joined(with: other)
    }
}
