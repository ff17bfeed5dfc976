import Foundation
import PropertyBased
import Testing

@testable import TxLedger
@testable import TxLedgerTestSupport

struct StatusLatticeTests {
    // MARK: - Join laws of the status register

    @Test func joinIsCommutative() async {
        await propertyCheck(count: 500, input: CRDTGen.statusRegister, CRDTGen.statusRegister) { a, b in
            #expect(a.joined(with: b) == b.joined(with: a))
        }
    }

    @Test func joinIsAssociative() async {
        await propertyCheck(count: 500, input: CRDTGen.statusRegister, CRDTGen.statusRegister, CRDTGen.statusRegister) {
            a,
            b,
            c in
            #expect(a.joined(with: b).joined(with: c) == a.joined(with: b.joined(with: c)))
        }
    }

    @Test func joinIsIdempotent() async {
        await propertyCheck(count: 300, input: CRDTGen.statusRegister) { a in
            #expect(a.joined(with: a) == a)
        }
    }

    @Test func joinTakesTheHigherRankAndNeverRegresses() async {
        await propertyCheck(count: 500, input: CRDTGen.statusRegister, CRDTGen.statusRegister) { a, b in
            let joined = a.joined(with: b).status
            #expect(joined.rank == max(a.status.rank, b.status.rank))
        }
    }

    @Test func betweenConfirmedAndFailedTheLaterStampWinsWithItsMetadata() async {
        await propertyCheck(count: 500, input: CRDTGen.statusRegister, CRDTGen.statusRegister) { a, b in
            guard let ta = a.terminal, let tb = b.terminal else { return }
            let later = ta.stamp > tb.stamp ? ta : tb
            #expect(a.joined(with: b).terminal == later)
            #expect(a.joined(with: b).status == later.value.status)
        }
    }

    @Test func confirmedVersusFailedExample() throws {
        let early = Stamp(millis: 10, replica: ReplicaID(rawValue: 1))
        let late = Stamp(millis: 20, replica: ReplicaID(rawValue: 0))
        let confirmed = StatusRegister(
            terminal: Register(
                TerminalOutcome(status: .confirmed, confirmedAt: Date(millis: 5), failureReason: nil),
                stamp: early
            )
        )
        let failed = StatusRegister(
            terminal: Register(
                TerminalOutcome(status: .failed, confirmedAt: nil, failureReason: "reverted"),
                stamp: late
            )
        )
        let joined = confirmed.joined(with: failed)
        #expect(joined.status == .failed)
        #expect(joined.terminal?.value.failureReason == "reverted")
        #expect(joined.terminal?.value.confirmedAt == nil)
    }

    // MARK: - Join laws of whole records

    @Test func recordJoinIsCommutativeAssociativeAndIdempotent() async {
        await propertyCheck(count: 500, input: CRDTGen.recordState, CRDTGen.recordState, CRDTGen.recordState) {
            a,
            b,
            c in
            #expect(a.joined(with: b) == b.joined(with: a))
            #expect(a.joined(with: b).joined(with: c) == a.joined(with: b.joined(with: c)))
            #expect(a.joined(with: a) == a)
        }
    }

    @Test func editsToDifferentFieldsOnTwoReplicasBothSurvive() throws {
        let base = RecordState(
            recording: try Fixture.minimalSend(hash: 1),
            stamp: Stamp(millis: 1, replica: ReplicaID(rawValue: 1))
        )
        var phone = base
        var laptop = base
        phone.note = Register("from the phone", stamp: Stamp(millis: 5, replica: ReplicaID(rawValue: 1)))
        laptop.labels = Register(["tax"], stamp: Stamp(millis: 6, replica: ReplicaID(rawValue: 2)))
        let merged = phone.joined(with: laptop).record
        #expect(merged.note == "from the phone")
        #expect(merged.labels == ["tax"])
    }

    // MARK: - Local updates

    @Test func localUpdatesNeverLowerTheRank() async {
        await propertyCheck(count: 300, input: CRDTGen.statusUpdate.array(of: 1...12)) { updates in
            var register = StatusRegister()
            for (i, update) in updates.enumerated() {
                let before = register.status
                switch register.applying(update, stamp: Stamp(millis: Int64(i + 1), replica: ReplicaID(rawValue: 1))) {
                case let .success(next):
                    #expect(next.status.rank >= before.rank)
                    #expect(next.status == update.status)
                    register = next
                case let .failure(refusal):
                    if update.status.rank < before.rank {
                        #expect(refusal == .wouldRegress(current: before))
                    } else {
                        #expect(refusal == .alreadyAt(before))
                    }
                }
            }
        }
    }

    @Test func markingAConfirmedTransactionPendingChangesNothingAndSaysSo() throws {
        let confirmed = try StatusRegister().applying(
            .confirmed(),
            stamp: Stamp(millis: 1, replica: ReplicaID(rawValue: 1))
        ).get()
        #expect(throws: StatusUpdateRefusal.wouldRegress(current: .confirmed)) {
            try confirmed.applying(.pending, stamp: Stamp(millis: 2, replica: ReplicaID(rawValue: 1))).get()
        }
    }

    @Test func statusUpdateMetadataMustFitTheStatus() {
        #expect(throws: LedgerError.self) { try StatusUpdate(.pending, confirmedAt: Date()) }
        #expect(throws: LedgerError.self) { try StatusUpdate(.confirmed, failureReason: "x") }
        #expect(throws: LedgerError.self) { try StatusUpdate(.failed, failureReason: "bad\u{0}") }
    }
}
