/// The writes that no longer count because their device was removed: for each replica of a
/// removed device, the greatest stamp time that still counts, its removal's cut
/// (Specs/devices.md, "What counts as a member's write"). A register stamped by such a replica
/// after its cut is set aside, whatever file brings it.
package struct WriteCuts: Equatable, Sendable {
    /// By replica, the greatest stamp time that counts.
    package private(set) var times: [ReplicaID: Int64]

    package init(_ times: [ReplicaID: Int64] = [:]) { self.times = times }

    package var isEmpty: Bool { times.isEmpty }

    /// Whether a register stamped `stamp` counts.
    package func counts(_ stamp: Stamp) -> Bool {
        times[stamp.replica].map { stamp.time <= $0 } ?? true
    }

    /// These cuts without `replica`'s: a device never sets its own writes aside (removed, it
    /// would lose them; the others refuse them).
    package func excluding(_ replica: ReplicaID) -> WriteCuts {
        var cuts = self
        cuts.times[replica] = nil
        return cuts
    }

    /// Whether a write that `earlier` refused counts under `self`: a removal stopped being
    /// effective (its remover was cut off by a removal it had not seen), or a cut rose.
    package func loosened(since earlier: WriteCuts) -> Bool {
        earlier.times.contains { replica, time in times[replica].map { $0 > time } ?? true }
    }

    /// The cuts that `self` holds and `earlier` did not, or holds lower: what a scan of the
    /// stored records must apply after a new removal.
    package func tightened(since earlier: WriteCuts) -> WriteCuts {
        WriteCuts(times.filter { replica, time in earlier.times[replica].map { time < $0 } ?? true })
    }
}

extension RecordState {
    /// The registers of this state that `cuts` refuses, by their names in Specs/devices.md:
    /// `facts`, `status`, `note`, `labels`, `hidden`, `newerFields`.
    package func registers(refusedBy cuts: WriteCuts) -> [String] {
        guard !cuts.isEmpty else { return [] }
        let refused: [(String, [Stamp?])] = [
            ("facts", [facts.stamp]), ("status", status.stamps), ("note", [note?.stamp]),
            ("labels", [labels?.stamp]), ("hidden", [hidden?.stamp]),
            ("newerFields", newerRegisters.values.map(\.stamp)), ("cleared", [cleared?.stamp]),
        ]
        return refused.filter { $0.1.contains { $0.map { !cuts.counts($0) } ?? false } }.map(\.0)
    }

    /// This state without the registers `cuts` refuses; `nil` when it refuses the facts (a
    /// record a removed device made past its cut is set aside whole).
    package func filtered(by cuts: WriteCuts) -> RecordState? {
        guard !cuts.isEmpty else { return self }
        guard cuts.counts(facts.stamp) else { return nil }
        return keeping(cuts.counts)
    }
}
