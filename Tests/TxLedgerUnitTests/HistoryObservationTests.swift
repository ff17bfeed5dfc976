import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Live updates: an observed history yields after every write that changes it (issue #6).
struct HistoryObservationTests {
    /// Records and merges are written through the SQLite C API (`RecordWriteStatement`), which
    /// GRDB does not see: its observation learns of them from `Database.notifyChanges` (and
    /// from the change number each write saves in `meta`, which every observed read reads too;
    /// either alone makes this pass). With the file's change counter not polled, an observation
    /// yields after every write all the same.
    @Test func yieldsAfterWritesWithoutPollingTheFile() async throws {
        let directory = try TemporaryDirectory()
        let ledger = try await Ledger.open(
            path: directory.path("ledger.sqlite"),
            options: .init(logger: .quiet, externalChangesPollMillis: 0)
        )
        var pages = ledger.observe(HistoryFilter(vault: "vault-1"), limit: 10).makeAsyncIterator()
        #expect(try await pages.next()?.items.isEmpty == true)
        let first = try Fixture.minimalSend(hash: 1)
        try await ledger.record(first)
        #expect(try await pages.next()?.items.map(\.id) == [first.id])
        // A status update writes the record's row alone (and the clock, which no page shows).
        _ = try await ledger.updateStatus(first.id, to: .pending)
        #expect(try await pages.next()?.items.map(\.status) == [.pending])
        let other = try await TestLedger()
        let second = try Fixture.minimalSend(hash: 2, at: Fixture.start.addingTimeInterval(60))
        try await other.ledger.record(second)
        _ = try await ledger.merge(try await other.ledger.changes(vault: "vault-1"))
        #expect(try await pages.next()?.items.map(\.id) == [second.id, first.id])
    }

    @Test func yieldsAfterARecordAStatusUpdateAMergeAndAnImport() async throws {
        let laptop = try await TestLedger()
        let phone = try await TestLedger()
        let pages = laptop.ledger.observe(HistoryFilter(vault: "vault-1"), limit: 10)
        var iterator = pages.makeAsyncIterator()
        #expect(try await iterator.next()?.items.isEmpty == true)

        let first = try Fixture.minimalSend(hash: 1)
        try await laptop.ledger.record(first)
        #expect(try await iterator.next()?.items.map(\.id) == [first.id])

        _ = try await laptop.ledger.updateStatus(first.id, to: .pending)
        #expect(try await iterator.next()?.items.map(\.status) == [.pending])

        // A write elsewhere leaves this page unchanged: nothing is yielded for it, so the next
        // value is the merge that follows.
        try await laptop.ledger.record(try Fixture.minimalSend(vault: "other", hash: 2))
        let second = try Fixture.minimalSend(hash: 3, at: Fixture.start.addingTimeInterval(60))
        try await phone.ledger.record([first, second])
        _ = try await phone.ledger.updateStatus(first.id, to: .confirmed(at: nil))
        _ = try await phone.ledger.sync(to: laptop.ledger, full: true)
        let merged = try #require(try await iterator.next())
        #expect(merged.items.map(\.id) == [second.id, first.id])
        #expect(merged.items.last?.status == .confirmed)

        let folder = try TemporaryDirectory()
        let key = SyncKey.generate()
        let third = try Fixture.minimalSend(hash: 4, at: Fixture.start.addingTimeInterval(120))
        try await phone.ledger.record(third)
        _ = try await phone.ledger.exportBundle(
            vault: "vault-1",
            to: folder.path("b.txlb"),
            secret: .syncKey(key),
            scope: .full
        )
        _ = try await laptop.ledger.importBundle(at: folder.path("b.txlb"), secret: .syncKey(key))
        #expect(try await iterator.next()?.items.map(\.id) == [third.id, second.id, first.id])
    }

    @Test func endsWhenTheObservingTaskIsCancelled() async throws {
        let test = try await TestLedger()
        let task = Task {
            var count = 0
            for try await _ in test.ledger.observe() {
                count += 1
                withUnsafeCurrentTask { $0?.cancel() }
            }
            return count
        }
        // The loop ends after the first page instead of waiting for a write that never comes.
        #expect(try await task.value == 1)
    }

    @Test func aLimitBelowOneIsAnError() async throws {
        let test = try await TestLedger()
        var iterator = test.ledger.observe(limit: 0).makeAsyncIterator()
        await #expect(throws: LedgerError.self) { _ = try await iterator.next() }
    }

    /// A status check that finds nothing new moves only `lastCheckedAt`: a list does not re-render.
    @Test func aCheckThatChangesNothingShownYieldsNothing() async throws {
        let test = try await TestLedger()
        let send = try Fixture.minimalSend(hash: 1)
        try await test.ledger.record(send)
        var pages = test.ledger.observe(HistoryFilter(vault: "vault-1"), limit: 10).makeAsyncIterator()
        _ = try await pages.next()
        try await test.ledger.record(
            try TransactionRecord(facts: send.facts, lastCheckedAt: Fixture.start.addingTimeInterval(30))
        )
        #expect(try await test.ledger.transaction(id: send.id)?.lastCheckedAt != nil, "the check was stored")
        try await test.ledger.setNote("shown", for: send.id)
        #expect(try await pages.next()?.items.first?.note == "shown", "the next page is the note, not the check")
    }

    @Test func oneRecordAndTheTabCountsAreObservedToo() async throws {
        let test = try await TestLedger()
        let send = try Fixture.minimalSend(hash: 1)
        var record = test.ledger.observe(id: send.id).makeAsyncIterator()
        var counts = test.ledger.observeTabCounts(HistoryFilter(vault: "vault-1")).makeAsyncIterator()
        #expect(try await record.next() == .some(nil))
        #expect(try await counts.next()?.sends == 0)
        try await test.ledger.record(send)
        #expect(try await record.next()??.id == send.id)
        #expect(try await counts.next()?.sends == 1)
        try await test.ledger.updateStatus(send.id, to: .pending)
        #expect(try await record.next()??.status == .pending)
        try await test.ledger.record(try Fixture.swap())
        #expect(try await counts.next()?.swaps == 1)
    }

    /// Another `Ledger` on the same file (as another process would): its writes are seen by
    /// polling the file's change counter; without polling they would never be (the test's time
    /// limit ends it then).
    @Test(.timeLimit(.minutes(5))) func writesByAnotherLedgerOnTheFileAreSeen() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("shared.sqlite")
        let app = try await Ledger.open(path: path, options: .init(logger: .quiet, externalChangesPollMillis: 10))
        let widget = try await Ledger.open(path: path, options: .init(logger: .quiet))
        var pages = app.observe(HistoryFilter(vault: "vault-1"), limit: 10).makeAsyncIterator()
        #expect(try await pages.next()?.items.isEmpty == true)
        for count in 1...3 {
            try await widget.record(try Fixture.minimalSend(hash: count))
            // Each page yielded is newer than the last; the one with the new record comes.
            var seen = 0
            while seen < count { seen = try #require(try await pages.next()).items.count }
            #expect(seen == count)
        }
    }
}
