/// What a clear erased of one record (Specs/crdt.md, "Clearing a vault"): the facts it had
/// seen. A clear marks each record its device held with the stamp of the facts it saw
/// (`through`) under the clear's own stamp (`stamp`: which device cleared, and when by its
/// clock). The record is cleared while its facts are stamped at or before `through`; facts
/// written later (the record recorded again, or restored) make it visible again, and a record
/// the clearing device had not seen carries no mark at all, whatever the clocks.
///
/// Marks join by the greater `through`, then the greater `stamp`: a total order, so the join
/// is commutative, associative and idempotent, and a record's visibility is a function of its
/// joined state.
package struct ClearMark: Hashable, Sendable {
    /// The facts stamp the clearing device held: facts stamped at or before it are cleared.
    package let through: Stamp
    /// The clear's own stamp: its replica is the clearing device's, its time the clear's.
    package let stamp: Stamp

    package init(through: Stamp, stamp: Stamp) {
        self.through = through
        self.stamp = stamp
    }

    /// Whether the facts stamped `facts` are cleared by this mark.
    package func clears(_ facts: Stamp) -> Bool { facts <= through }

    package func joined(with other: ClearMark) -> ClearMark {
        (other.through, other.stamp) > (through, stamp) ? other : self
    }
}

extension ClearMark? {
    package func joined(with other: ClearMark?) -> ClearMark? {
        guard let self else { return other }
        guard let other else { return self }
        return self.joined(with: other)
    }
}
