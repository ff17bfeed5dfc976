/// A last-writer-wins register: a value and the stamp of the write that set it. The join keeps
/// the value with the greater stamp, and between two values under one stamp the one with the
/// greater `tieBreakKey` (Specs/crdt.md, "Equal stamps"); that order is total, so the join is
/// commutative, associative and idempotent.
///
/// A register read from a newer version's bundle may carry fields this version does not know
/// (`newerFields`, bundle-format.md "Newer fields"): they are part of its value, travel with
/// it through joins, and are dropped when a local write replaces the value.
package struct Register<Value: Hashable & Sendable>: Hashable, Sendable {
    package let value: Value
    package let stamp: Stamp
    let newerFields: NewerFields

    package init(_ value: Value, stamp: Stamp) {
        self.init(value, stamp: stamp, newerFields: NewerFields())
    }

    init(_ value: Value, stamp: Stamp, newerFields: NewerFields) {
        self.value = value
        self.stamp = stamp
        self.newerFields = newerFields
    }

    /// The same value, with its newer fields, written again under `stamp` (a restore).
    package func restamped(_ stamp: Stamp) -> Register {
        Register(value, stamp: stamp, newerFields: newerFields)
    }
}

extension Register where Value: TieBreakable {
    package func joined(with other: Register) -> Register {
        if other.stamp != stamp { return other.stamp > stamp ? other : self }
        let (key, otherKey) = (value.tieBreakKey, other.value.tieBreakKey)
        if key != otherKey { return key.lexicographicallyPrecedes(otherKey) ? other : self }
        return newerFields.tieBreakKey.lexicographicallyPrecedes(other.newerFields.tieBreakKey) ? other : self
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
