import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

struct HybridClockTests {
    let replica = ReplicaID(rawValue: 7)

    @Test func followsTheWallClockWhenItMovesForward() {
        var clock = HybridClock(replica: replica, last: 0)
        #expect(clock.tick(wallMillis: 1000) == Stamp(millis: 1000, replica: replica))
        #expect(clock.tick(wallMillis: 2000) == Stamp(millis: 2000, replica: replica))
    }

    @Test func countsWithinOneMillisecondAndWhenTheWallClockGoesBack() {
        var clock = HybridClock(replica: replica, last: 0)
        let a = clock.tick(wallMillis: 5000)
        let b = clock.tick(wallMillis: 5000)
        let c = clock.tick(wallMillis: 1000)  // wall clock jumped back
        #expect(a < b && b < c)
        #expect(c.millis == 5000 && c.counter == 2)
    }

    @Test func counterOverflowCarriesIntoTheNextMillisecond() {
        var clock = HybridClock(replica: replica, last: Stamp(millis: 9, counter: 0xFFFF, replica: replica).time)
        let next = clock.tick(wallMillis: 9)
        #expect(next.millis == 10 && next.counter == 0)
    }

    @Test func stampsOrderByTimeThenReplica() {
        let early = Stamp(millis: 1, replica: ReplicaID(rawValue: 99))
        let late = Stamp(millis: 2, replica: ReplicaID(rawValue: 1))
        #expect(early < late)
        #expect(Stamp(millis: 2, replica: ReplicaID(rawValue: 0)) < late)
    }

    @Test func observingARemoteStampOrdersLaterLocalWritesAfterIt() {
        var clock = HybridClock(replica: replica, last: 0, maxForwardDrift: 60_000)
        let remote = Stamp(millis: 30_000, counter: 4, replica: ReplicaID(rawValue: 1))
        #expect(clock.observe(remote, wallMillis: 1000) == .advanced)
        #expect(clock.tick(wallMillis: 1000) > remote)
    }

    @Test func aStampFarInTheFutureDoesNotPoisonTheClock() {
        var clock = HybridClock(replica: replica, last: 0, maxForwardDrift: 60_000)
        let yearAhead = Stamp(millis: 1000 + 365 * 86_400_000, replica: ReplicaID(rawValue: 1))
        #expect(clock.observe(yearAhead, wallMillis: 1000) == .tooFarAhead)
        #expect(clock.tick(wallMillis: 1000).millis == 1000)
    }

    @Test func anOldRemoteStampChangesNothing() {
        var clock = HybridClock(replica: replica, last: Stamp(millis: 5000, replica: replica).time)
        #expect(clock.observe(Stamp(millis: 10, replica: ReplicaID(rawValue: 1)), wallMillis: 5000) == .advanced)
        #expect(clock.tick(wallMillis: 5000) == Stamp(millis: 5000, counter: 1, replica: replica))
    }

    @Test func replicaIDsPrintAsSixteenHexDigits() {
        #expect(ReplicaID(rawValue: 255).description == "00000000000000ff")
    }

    // MARK: - Through the ledger

    @Test func stampsKeepIncreasingAcrossRestartsWhenTheWallClockJumpsBack() async throws {
        let test = try await TestLedger()
        let first = try Fixture.minimalSend(hash: 1)
        try await test.ledger.record(first)
        let firstStamp = try #require(try await test.ledger.state(first.id)).facts.stamp

        let behind = ManualClock(test.clock.now.addingTimeInterval(-3600))
        let restarted = try await test.reopened(clock: behind)
        let second = try Fixture.minimalSend(hash: 2)
        try await restarted.record(second)
        let secondStamp = try #require(try await restarted.state(second.id)).facts.stamp

        #expect(secondStamp > firstStamp)
        #expect(secondStamp.replica == firstStamp.replica)
        #expect(restarted.replicaID == test.ledger.replicaID)
    }

    @Test func everyWriteGetsAFreshLargerStamp() async throws {
        let test = try await TestLedger()
        let record = try Fixture.minimalSend(hash: 1)
        try await test.ledger.record(record)
        try await test.ledger.setNote("a", for: record.id)
        _ = try await test.ledger.updateStatus(record.id, to: .pending)
        let state = try #require(try await test.ledger.state(record.id))
        let facts = state.facts.stamp
        let note = try #require(state.note).stamp
        let pending = try #require(state.status.pending)
        #expect(facts < note && note < pending)
    }
}
