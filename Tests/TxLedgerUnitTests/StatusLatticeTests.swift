import Foundation
import PropertyBased
import Testing

@testable import TxLedger
@testable import TxLedgerCore
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

    /// The rank of a terminal claim: the chain's answer over a device's word, then the stamp.
    static func rank(_ claim: Register<StatusUpdate>) -> (Int, Stamp) {
        (claim.value.checkedOnChain ? 1 : 0, claim.stamp)
    }

    @Test func betweenConfirmedAndFailedTheChainThenTheLaterStampWinsWithItsMetadata() async {
        await propertyCheck(count: 500, input: CRDTGen.statusRegister, CRDTGen.statusRegister) { a, b in
            guard let ta = a.terminal, let tb = b.terminal else { return }
            let later = Self.rank(ta) > Self.rank(tb) ? ta : tb
            #expect(a.joined(with: b).terminal == later)
            #expect(a.joined(with: b).status == later.value.status)
        }
    }

    /// A stamp from a clock far ahead never outranks the chain's answer; and claims that
    /// disagree with the shown one are a dispute, until the chain's answer is the shown one
    /// (crdt.md, "Outcomes the chain settles").
    @Test func theChainsAnswerOutranksEveryWordAndSettlesDisputes() async {
        await propertyCheck(count: 500, input: CRDTGen.statusRegister, CRDTGen.statusRegister) { a, b in
            let joined = a.joined(with: b)
            let claims = [a.terminal, a.rival, b.terminal, b.rival].compactMap { $0 }
            guard let shown = joined.terminal else {
                #expect(claims.isEmpty)
                return
            }
            if claims.contains(where: \.value.checkedOnChain) { #expect(shown.value.checkedOnChain) }
            let disagreeing = claims.filter { !$0.value.agrees(with: shown.value) }
            #expect((joined.rival != nil) == !disagreeing.isEmpty)
            #expect(joined.isDisputed == (!disagreeing.isEmpty && !shown.value.checkedOnChain))
            if let rival = joined.rival {
                #expect(
                    Self.rank(rival) == disagreeing.map(Self.rank).max(by: <)!,
                    "the rival is the greatest disagreeing claim"
                )
            }
        }
    }

    @Test func proofBeatsInferenceWhateverTheStamps() async {
        await propertyCheck(count: 500, input: CRDTGen.statusRegister, CRDTGen.statusRegister) { a, b in
            let joined = a.joined(with: b)
            let proofs = [a.terminal, b.terminal].compactMap { $0 }
            if let proof = proofs.max(by: { Self.rank($0) < Self.rank($1) }) {
                #expect(joined.evidence == .proof)
                #expect(joined.status == proof.value.status)
                #expect(joined.update.failureReason == proof.value.failureReason)
            } else if let inferred = [a.inferred, b.inferred].compactMap({ $0 }).max(by: { $0.stamp < $1.stamp }) {
                #expect(joined.evidence == .inference && joined.status == .failed)
                #expect(joined.update.failureReason == inferred.value)
            } else {
                #expect(joined.evidence == nil && !joined.status.isTerminal)
            }
        }
    }

    /// A vault clear erases every register stamped at or before its watermark; it must give the
    /// same registers whether it is applied before or after a join (crdt.md, "Clearing a
    /// vault"). Erased facts kept under surviving registers are invisible, so only their
    /// visibility is compared.
    @Test func aClearCommutesWithTheJoin() async {
        let watermark = Generator<Stamp, Shrink.None<Stamp>>(run: { rng in CRDTGen.stamp(&rng) })
        await propertyCheck(count: 500, input: CRDTGen.recordState, CRDTGen.recordState, watermark) { a, b, mark in
            let joinedThenCleared = a.joined(with: b).filtered(clearedThrough: mark)
            let clearedThenJoined: RecordState? =
                switch (a.filtered(clearedThrough: mark), b.filtered(clearedThrough: mark)) {
                case let (x?, y?): x.joined(with: y)
                case let (x, y): x ?? y
                }
            #expect(joinedThenCleared?.status == clearedThenJoined?.status)
            #expect(joinedThenCleared?.note == clearedThenJoined?.note)
            #expect(joinedThenCleared?.labels == clearedThenJoined?.labels)
            #expect(joinedThenCleared?.hidden == clearedThenJoined?.hidden)
            let visible = joinedThenCleared?.isVisible(clearedThrough: mark)
            #expect(visible == clearedThenJoined?.isVisible(clearedThrough: mark))
            if visible == true { #expect(joinedThenCleared?.record == clearedThenJoined?.record) }
        }
    }

    @Test func aLaterInferenceDoesNotOverturnAnEarlierProof() throws {
        let early = Stamp(millis: 10, replica: ReplicaID(rawValue: 1))
        let late = Stamp(millis: 20, replica: ReplicaID(rawValue: 0))
        let proven = try StatusRegister().applying(
            .confirmed(at: Date(millis: 5), block: 7, feePaid: try DecimalAmount("0.000021")),
            stamp: early
        ).get()
        let inferred = try StatusRegister().applying(
            .inferredFailure(reason: "dropped or replaced: nonce 7 was used by another transaction"),
            stamp: late
        ).get()
        #expect(inferred.status == .failed && inferred.evidence == .inference)
        for joined in [proven.joined(with: inferred), inferred.joined(with: proven)] {
            #expect(joined.status == .confirmed && joined.evidence == .proof && joined.update.failureReason == nil)
            #expect(joined.terminal?.value.blockNumber == 7 && joined.terminal?.value.feePaid?.string == "0.000021")
        }
        let stamp = Stamp(millis: 30, replica: ReplicaID(rawValue: 1))
        #expect(throws: StatusUpdateRefusal.proven(.confirmed)) {
            try proven.applying(.inferredFailure(reason: "dropped"), stamp: stamp).get()
        }
        // A proof overturns an inference, and then an inference changes nothing.
        let overturned = try inferred.applying(.confirmed(), stamp: stamp).get()
        #expect(overturned.status == .confirmed && overturned.evidence == .proof)
    }

    @Test func confirmedVersusFailedExample() throws {
        let early = Stamp(millis: 10, replica: ReplicaID(rawValue: 1))
        let late = Stamp(millis: 20, replica: ReplicaID(rawValue: 0))
        let confirmed = StatusRegister(
            terminal: Register(
                StatusUpdate(checked: .confirmed, confirmedAt: Date(millis: 5), failureReason: nil),
                stamp: early
            )
        )
        let failed = StatusRegister(
            terminal: Register(
                StatusUpdate(checked: .failed, confirmedAt: nil, failureReason: "reverted"),
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

    /// What a replica stores is the state's frame: every state a join makes (rivals, clear
    /// marks and newer fields included) reads back from its frame unchanged, and joining again
    /// any state it came from changes nothing (the join is idempotent through storage; found
    /// by `ConvergenceTests` when a record's newer fields dropped its rival on reading).
    @Test func joinedStatesSurviveTheirFramesAndJoiningAgainChangesNothing() async {
        await propertyCheck(count: 500, input: CRDTGen.recordState, CRDTGen.recordState, CRDTGen.recordState) {
            a,
            b,
            c in
            func stored(_ state: RecordState) throws -> RecordState {
                var encoder = FrameEncoder(origin: ReplicaID(rawValue: 0))
                var decoder = FrameDecoder(version: FrameDecoder.currentVersion, origin: ReplicaID(rawValue: 0))
                return try decoder.record(encoder.frame(state), vault: state.facts.value.vaultId, index: 0)
            }
            do {
                let joined = try stored(try stored(a).joined(with: try stored(b))).joined(with: try stored(c))
                #expect(try stored(joined) == joined)
                for source in [a, b, c] { #expect(joined.joined(with: try stored(source)) == joined) }
            } catch {
                Issue.record(error)
            }
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
                    } else if update.evidence == .inference && register.evidence == .proof {
                        #expect(refusal == .proven(before))
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
        #expect(
            throws: LedgerError.invalidInput(
                field: "blockNumber",
                reason: "only a proven confirmation or failure has one"
            )
        ) {
            try StatusUpdate(.pending, blockNumber: 1)
        }
        #expect(
            throws: LedgerError.invalidInput(field: "feePaid", reason: "only a proven confirmation or failure has one")
        ) {
            try StatusUpdate(.failed, failureReason: "dropped", feePaid: try DecimalAmount("1"), evidence: .inference)
        }
        #expect(throws: LedgerError.self) { try StatusUpdate(.confirmed, evidence: .inference) }
        #expect(throws: LedgerError.self) { try StatusUpdate(.failed, evidence: .inference) }
        #expect(throws: LedgerError.self) { try StatusUpdate(.confirmed, blockNumber: UInt64(Int64.max) + 1) }
        #expect(throws: Never.self) { try StatusUpdate(.failed, blockNumber: 9, feePaid: try DecimalAmount("0.1")) }
    }
}
