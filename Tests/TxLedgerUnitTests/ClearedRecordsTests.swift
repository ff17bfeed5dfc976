import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// What a device keeps of a clear (crdt.md, "Clearing a vault"): the cleared records, whole and
/// restorable, for 30 days from when it first held them cleared; then a tombstone, so that a
/// device that never heard of the clear cannot bring them back here.
struct ClearedRecordsTests {
    @Test func clearedRecordsAreKeptThirtyDaysThenPurgedToATombstone() async throws {
        let (phone, stale) = (try await TestLedger(), try await TestLedger())
        let t1 = try Fixture.minimalSend(hash: 1)
        try await phone.ledger.record(t1)
        try await phone.ledger.setNote("rent", for: t1.id)
        try await phone.ledger.sync(to: stale.ledger, full: true)
        #expect(try await phone.ledger.clearHistory(vault: t1.vaultId) == 1)

        let listed = try await phone.ledger.clearedRecords(vault: t1.vaultId)
        #expect(listed.map(\.record.id) == [t1.id] && listed.first?.record.note == "rent")
        #expect(listed.first?.clearedBy == phone.ledger.replicaID)
        let until = try #require(listed.first?.restorableUntil)
        #expect(until.millis == phone.clock.now.millis + 30 * 86_400_000)

        // Day 29: still there. Day 31: gone from the list, and purged by the next write.
        phone.clock.advance(by: 29 * 86_400)
        #expect(try await phone.ledger.clearedRecords(vault: t1.vaultId).count == 1)
        phone.clock.advance(by: 2 * 86_400)
        #expect(try await phone.ledger.clearedRecords(vault: t1.vaultId).isEmpty)
        #expect(try await phone.ledger.clearHistory(vault: t1.vaultId) == 0)
        #expect(try await phone.ledger.read { try $0.fetchStored(id: t1.id) } == nil, "its state is purged")
        await #expect(throws: LedgerError.notFound(t1.id.rawValue)) {
            try await phone.ledger.restoreCleared(vault: t1.vaultId, ids: [t1.id])
        }

        // A device that never heard of the clear sends the record whole: it stays cleared here.
        let report = try await stale.ledger.sync(to: phone.ledger, full: true)
        #expect(report.recordsAdded == 0)
        #expect(try await phone.ledger.all().isEmpty)
        // Recorded again (new facts), it shows.
        try await phone.ledger.record(t1)
        #expect(try await phone.ledger.all().map(\.id) == [t1.id])
    }

    @Test func restoringWhatIsNotClearedChangesNothing() async throws {
        let phone = try await TestLedger()
        let (t1, t2) = (try Fixture.minimalSend(hash: 1), try Fixture.minimalSend(hash: 2))
        try await phone.ledger.record(t1)
        try await phone.ledger.clearHistory(vault: t1.vaultId)
        try await phone.ledger.record(t2)
        await #expect(throws: LedgerError.notFound(t2.id.rawValue)) {
            try await phone.ledger.restoreCleared(vault: t1.vaultId, ids: [t1.id, t2.id])
        }
        #expect(try await phone.ledger.all().map(\.id) == [t2.id], "nothing was restored")
        #expect(try await phone.ledger.restoreCleared(vault: t1.vaultId, ids: [t1.id]).map(\.id) == [t1.id])
    }

    /// A change set whose every record carries a mark of its own lists at most
    /// `ClearReport.maxListed` clears, and counts every record it cleared.
    @Test func aReportListsBoundedClearsAndCountsThemAll() {
        var report = MergeReport()
        for n in 0..<(ClearReport.maxListed * 3) {
            var one = MergeReport()
            one.recordsCleared = 1
            one.count(ClearReport(vault: "v", by: Stamp(millis: Int64(n), replica: ReplicaID(rawValue: 1)), records: 1))
            report.add(one)
        }
        #expect(report.clears.count == ClearReport.maxListed)
        #expect(report.recordsCleared == ClearReport.maxListed * 3)
    }
}
