import Foundation
import PropertyBased
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// The laws of a clear by observation (crdt.md, "Clearing a vault"): a clear hides what its
/// device had seen of a record, and nothing else, whatever the clocks; and with clear marks the
/// join stays a join (`StatusLatticeTests.recordJoinIsCommutativeAssociativeAndIdempotent`
/// draws states with marks).
struct ObservedClearTests {
    /// A device holding `seen` clears it under a stamp from any clock (a year ahead included);
    /// whatever any other device holds of the record (`other`, written before or after, with
    /// any clock), the joined record is hidden exactly when its facts are the ones the clear
    /// had seen or older. The old rule (erase what is stamped before the clear) fails this:
    /// facts written after the ones seen but stamped before a fast clock's clear would go.
    @Test func aClearHidesWhatItsDeviceHadSeenAndNothingElse() async {
        let clearStamp = Generator<Stamp, Shrink.None<Stamp>>(run: { rng in
            // A clear's stamp from a clock far ahead of every write, or among them.
            Bool.random(using: &rng)
                ? Stamp(millis: 365 * 86_400_000, replica: ReplicaID(rawValue: 2)) : CRDTGen.stamp(&rng)
        })
        await propertyCheck(count: 500, input: CRDTGen.recordState, CRDTGen.recordState, clearStamp) {
            seen,
            other,
            stamp in
            var cleared = seen
            cleared.cleared = seen.cleared.joined(with: ClearMark(through: seen.facts.stamp, stamp: stamp))
            let joined = cleared.joined(with: other)
            // What the clears had seen: this one, and the ones either state carried already.
            let seenByClears = [seen.facts.stamp, seen.cleared?.through, other.cleared?.through].compactMap { $0 }
                .max()!
            #expect(joined.isVisible(clearedThrough: nil) == (joined.facts.stamp > seenByClears))
            #expect(joined.facts.stamp > seen.facts.stamp || !joined.isVisible(clearedThrough: nil))
            // In either order of merging, with itself again: the same.
            #expect(other.joined(with: cleared).joined(with: cleared) == joined)
        }
    }

    /// Recording a cleared transaction again, or restoring it, writes facts after the ones the
    /// clear had seen, even when those came from a clock far ahead: it shows again.
    @Test func factsWrittenAfterTheOnesSeenShowAgain() throws {
        let record = try Fixture.minimalSend(hash: 1)
        let ahead = Stamp(millis: 365 * 86_400_000, replica: ReplicaID(rawValue: 2))
        var state = RecordState(recording: record, stamp: ahead)
        state.cleared = ClearMark(through: ahead, stamp: Stamp(millis: 10, replica: ReplicaID(rawValue: 1)))
        #expect(!state.isVisible(clearedThrough: nil))
        let later = Stamp(time: ahead.time + 1, replica: ReplicaID(rawValue: 1))
        state.facts = state.facts.restamped(later)
        #expect(state.isVisible(clearedThrough: nil))
    }

    /// The clear register is format 5's: a format 5 frame carries it whole; a frame of format 4
    /// that holds one of its fields is malformed, never read as a newer fact (bundle-format.md).
    @Test func onlyAFormatFiveFrameHoldsTheClearRegister() throws {
        let replica = ReplicaID(rawValue: 1)
        var state = RecordState(recording: try Fixture.minimalSend(hash: 1), stamp: Stamp(millis: 10, replica: replica))
        state.cleared = ClearMark(through: state.facts.stamp, stamp: Stamp(millis: 20, replica: replica))
        var encoder = FrameEncoder(origin: replica)
        let frame = encoder.frame(state)
        var five = FrameDecoder(version: 5, origin: replica)
        #expect(try five.record(frame, vault: state.facts.value.vaultId, index: 0) == state)
        var four = FrameDecoder(version: 4, origin: replica)
        #expect {
            try four.record(frame, vault: state.facts.value.vaultId, index: 0)
        } throws: { error in
            (error as? BundleError)?.code == .malformedContent
                && (error as? BundleError)?.reason?.contains("format 5's clear register") == true
        }
    }
}
