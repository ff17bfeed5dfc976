import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerReplication
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

struct ReplicationTests {
    @Test func conflictingEditsMergeBothWaysAndBothSurvive() async throws {
        let (a, b) = (try await TestLedger(), try await TestLedger())
        let record = try Fixture.minimalSend(hash: 1)
        try await a.ledger.record(record)
        try await a.ledger.sync(to: b.ledger)

        _ = try await a.ledger.updateStatus(record.id, to: .confirmed(at: Fixture.start))
        try await a.ledger.setNote("from phone", for: record.id)
        b.clock.advance(by: 5)
        _ = try await b.ledger.updateStatus(record.id, to: .failed(reason: "reverted"))
        try await b.ledger.setLabels(["tax"], for: record.id)

        let intoB = try await a.ledger.sync(to: b.ledger)
        let intoA = try await b.ledger.sync(to: a.ledger)
        #expect(intoB.recordsChanged == 1 && intoA.recordsChanged == 1)
        #expect(intoB.conflicts.map(\.register) == ["status"])
        #expect(intoB.conflicts.first?.kept == "failed" && intoB.conflicts.first?.keptReceived == false)

        let merged = try #require(try await a.ledger.transaction(id: record.id))
        #expect(merged.status == .failed && merged.failureReason == "reverted")  // the later terminal write
        #expect(merged.note == "from phone" && merged.labels == ["tax"])
        #expect(try await b.ledger.transaction(id: record.id) == merged)
        #expect(try await ReplicaSnapshot(a.ledger) == ReplicaSnapshot(b.ledger))

        let again = try await a.ledger.sync(to: b.ledger, full: true)
        #expect(!again.changedAnything && again.recordsUnchanged == 1)
    }

    /// Merging another ledger file reads it as it merges; the result and the report are those
    /// of merging the full change set of each of its vaults, and the file itself is refused.
    @Test func mergingALedgerFileIsMergingItsFullChangeSets() async throws {
        let (a, b) = (try await TestLedger(), try await TestLedger())
        let shared = try Fixture.send(hash: 1)
        try await a.ledger.record(shared)
        try await a.ledger.sync(to: b.ledger)
        try await a.ledger.record([try Fixture.swap(hash: 2), try Fixture.send(vault: "savings", hash: 3)])
        b.clock.advance(by: 5)
        _ = try await b.ledger.updateStatus(shared.id, to: .failed(reason: "reverted"))
        try await b.ledger.record(try Fixture.send(vault: "other", hash: 4))
        let viaChangeSets = try await TestLedger(copyOf: a.ledger, clock: a.clock)
        var changeSets: [ChangeSet] = []
        for vault in try await b.ledger.vaults() { changeSets.append(try await b.ledger.changes(vault: vault)) }

        let fromFile = try await a.ledger.merge(ledgerAt: b.ledger.path)
        let fromChangeSets = try await viaChangeSets.ledger.merge(changeSets)
        #expect(fromFile.recordsAdded == 1 && fromFile.recordsChanged == 1)
        #expect(fromFile.recordsAdded == fromChangeSets.recordsAdded)
        #expect(fromFile.recordsChanged == fromChangeSets.recordsChanged)
        #expect(fromFile.conflicts == fromChangeSets.conflicts)
        #expect(try await ReplicaSnapshot(a.ledger) == ReplicaSnapshot(viaChangeSets.ledger))
        await #expect(throws: LedgerError.self) { try await a.ledger.merge(ledgerAt: a.ledger.path) }
    }

    /// The other file's records are read on a thread of their own and handed over in batches;
    /// vaults end inside a batch, and a vault with no records has its header alone. Every vault
    /// is merged whole, into its own vault.
    @Test func mergingALedgerFileKeepsEachVaultsRecordsWithItsVault() async throws {
        let (a, b) = (try await TestLedger(), try await TestLedger())
        let perVault = ["main": 300, "savings": 1, "trading": 299]
        for (vault, count) in perVault {
            try await b.ledger.record(try (1...count).map { try Fixture.send(vault: vault, hash: $0) })
        }
        // A vault heard of with no records: its header comes right before the next vault's.
        let empty = try await TestLedger()
        try await b.ledger.merge(try await empty.ledger.changes(vault: "cold"))
        let viaChangeSets = try await TestLedger(copyOf: a.ledger, clock: a.clock)
        var changeSets: [ChangeSet] = []
        for vault in try await b.ledger.vaults() { changeSets.append(try await b.ledger.changes(vault: vault)) }

        let fromFile = try await a.ledger.merge(ledgerAt: b.ledger.path)
        try await viaChangeSets.ledger.merge(changeSets)
        #expect(fromFile.recordsAdded == 600)
        // Their texts were new to this file: the merge's worker numbered them, batch by batch,
        // as this file's tables took them.
        #expect(try await a.ledger.all() == b.ledger.all())
        #expect(try await a.ledger.vaults() == ["cold", "main", "savings", "trading"])
        for (vault, count) in perVault {
            #expect(try await a.ledger.list(HistoryFilter(vault: vault), limit: 1000).items.count == count)
        }
        #expect(try await ReplicaSnapshot(a.ledger) == ReplicaSnapshot(viaChangeSets.ledger))
    }

    /// The other file is read on a thread of its own while earlier batches merge: a damaged row
    /// past the first batch still leaves this ledger as it was, and says what is damaged.
    @Test func aDamagedRowInTheOtherFileLeavesThisLedgerAsItWas() async throws {
        let (a, b) = (try await TestLedger(), try await TestLedger())
        try await a.ledger.record(try Fixture.send(hash: 1))
        try await b.ledger.record(try (2...600).map { try Fixture.minimalSend(hash: $0) })
        try await b.ledger.database.pool.write { db in
            try db.execute(
                sql: "UPDATE record SET state = x'00' WHERE id = (SELECT id FROM record ORDER BY id LIMIT 1 OFFSET 500)"
            )
        }
        let before = try await ReplicaSnapshot(a.ledger)
        await #expect {
            try await a.ledger.merge(ledgerAt: b.ledger.path)
        } throws: { error in
            guard let failure = error as? LedgerError, failure.code == .unreadableDatabase, let path = failure.path,
                let reason = failure.reason
            else { return false }
            return path == b.ledger.path && reason.contains("is malformed")
        }
        #expect(try await ReplicaSnapshot(a.ledger) == before)
        #expect(try await a.ledger.all().count == 1)
    }

    @Test func aRecordOnBothSidesStaysOneRecord() async throws {
        let (a, b) = (try await TestLedger(), try await TestLedger())
        try await a.ledger.record(try Fixture.send())
        b.clock.advance(by: 1)
        try await b.ledger.record(try Fixture.send(note: "typed on b"))
        try await a.ledger.sync(to: b.ledger)
        try await b.ledger.sync(to: a.ledger)
        #expect(try await a.ledger.all().count == 1)
        #expect(try await ReplicaSnapshot(a.ledger) == ReplicaSnapshot(b.ledger))
    }

    /// Merges read stored states a batch at a time; a later state of the same id in the batch
    /// must join what the earlier one wrote, not the state read before it. And a batch is worked
    /// out on the merge's worker thread while the one before it is written: a batch that holds
    /// an id of that one must read its row once written, not before.
    @Test(arguments: [0, 1, 2]) func aRecordTwiceInOneChangeSetJoinsBothStates(batchesApart: Int) async throws {
        let (a, b, c) = (try await TestLedger(), try await TestLedger(), try await TestLedger())
        let record = try Fixture.minimalSend(hash: 1)
        try await a.ledger.record(record)
        try await a.ledger.setNote("from a", for: record.id)
        try await c.ledger.record(record)
        _ = try await c.ledger.updateStatus(record.id, to: .confirmed(at: Fixture.start))
        let size = LedgerTransaction.mergeBatch.count
        try await a.ledger.record(try (2...(size * 3)).map { try Fixture.minimalSend(hash: $0) })
        let fromA = try await a.ledger.changes(vault: record.vaultId)
        let filler = fromA.records.filter { $0.id != record.id }
        // a's state at index p, c's at q: the end of the first batch and the start of the next
        // one or of the one after, or both in the first batch.
        let p = batchesApart == 0 ? size - 2 : size - 1
        let q = batchesApart == 0 ? size - 1 : size * batchesApart
        let fromC = try await c.ledger.changes(vault: record.vaultId).records
        let records =
            filler[..<p] + fromA.records.filter { $0.id == record.id } + filler[p..<(q - 1)] + fromC
            + filler[(q - 1)...]
        let report = try await b.ledger.merge(ChangeSet(header: fromA.header, records: Array(records)))
        let merged = try #require(try await b.ledger.transaction(id: record.id))
        #expect(merged.note == "from a" && merged.status == .confirmed)
        #expect(report.recordsAdded == filler.count + 1 && report.recordsChanged == 1)
    }

    @Test func deltasCarryOnlyWhatThePeerLacks() async throws {
        let (a, b) = (try await TestLedger(), try await TestLedger())
        try await a.ledger.record(try (1...50).map { try Fixture.minimalSend(hash: $0) })
        // a never heard of b.
        #expect(try await a.ledger.changes(vault: "vault-1", forPeer: b.ledger.replicaID).recordCount == 50)
        try await a.ledger.sync(to: b.ledger)
        try await b.ledger.sync(to: a.ledger)  // b tells a what it holds

        let id = try Fixture.minimalSend(hash: 7).id
        try await a.ledger.setNote("changed", for: id)
        let delta = try await a.ledger.changes(vault: "vault-1", forPeer: b.ledger.replicaID)
        #expect(delta.recordCount == 1 && !delta.isFull)
        #expect(try await b.ledger.merge(delta).recordsChanged == 1)
        #expect(try await b.ledger.transaction(id: id)?.note == "changed")
        #expect(try await a.ledger.changes(vault: "vault-1").recordCount == 50)
    }

    @Test func aDroppedDeltaIsSentAgainUntilAcknowledged() async throws {
        let (a, b) = (try await TestLedger(), try await TestLedger())
        try await a.ledger.record(try Fixture.minimalSend(hash: 1))
        try await a.ledger.sync(to: b.ledger)
        try await b.ledger.sync(to: a.ledger)

        try await a.ledger.record(try Fixture.minimalSend(hash: 2))
        _ = try await a.ledger.changes(vault: "vault-1", forPeer: b.ledger.replicaID)  // lost on the way
        try await a.ledger.record(try Fixture.minimalSend(hash: 3))
        let later = try await a.ledger.changes(vault: "vault-1", forPeer: b.ledger.replicaID)
        #expect(later.recordCount == 2)  // still both: b never acknowledged the first
        try await b.ledger.merge(later)
        #expect(try await ReplicaSnapshot(a.ledger) == ReplicaSnapshot(b.ledger))
    }

    @Test func aDeltaFromAfterAGapDoesNotClaimWhatWasMissed() async throws {
        let (a, b, c) = (try await TestLedger(), try await TestLedger(), try await TestLedger())
        try await a.ledger.record(try Fixture.minimalSend(hash: 1))
        try await a.ledger.sync(to: b.ledger)
        try await b.ledger.sync(to: a.ledger)
        try await a.ledger.record(try Fixture.minimalSend(hash: 2))
        let first = try await a.ledger.changes(vault: "vault-1", forPeer: b.ledger.replicaID)
        try await c.ledger.merge(first)  // c learns a's change, and a's knowledge
        try await a.ledger.record(try Fixture.minimalSend(hash: 3))
        // c received a delta that did not start at 0: it must not claim to hold all of a.
        let heldByC = try await c.ledger.read { store in try store.held("vault-1")[a.ledger.replicaID] }
        #expect(heldByC == nil)
        try await c.ledger.sync(to: a.ledger)
        try await a.ledger.sync(to: c.ledger)
        #expect(try await ReplicaSnapshot(a.ledger) == ReplicaSnapshot(c.ledger))
    }

    @Test func aMergeIsAllOrNothing() async throws {
        let (a, b) = (try await TestLedger(), try await TestLedger())
        try await a.ledger.record(try Fixture.minimalSend(hash: 1))
        try await b.ledger.record([try Fixture.minimalSend(hash: 2), try Fixture.minimalSend(vault: "other", hash: 3)])
        let good = try await b.ledger.changes(vault: "vault-1")
        let other = try await b.ledger.changes(vault: "other")
        // A change set that claims vault-1 but carries a record of "other".
        let forged = ChangeSet(
            header: ChangeSetHeader(
                vaultId: "vault-1",
                origin: other.origin,
                since: 0,
                through: other.through,
                knowledge: [:],
                clearedThrough: nil
            ),
            records: other.records
        )
        let before = try await ReplicaSnapshot(a.ledger)
        await #expect(throws: LedgerError.self) { try await a.ledger.merge([good, forged]) }
        #expect(try await ReplicaSnapshot(a.ledger) == before)
    }

    @Test func aClearReachesOtherReplicasAndKeepsWhatCameAfter() async throws {
        let (a, b) = (try await TestLedger(), try await TestLedger())
        try await a.ledger.record([try Fixture.minimalSend(hash: 1), try Fixture.minimalSend(hash: 2)])
        try await a.ledger.sync(to: b.ledger)

        a.clock.advance(by: 10)
        #expect(try await a.ledger.clearHistory(vault: "vault-1") == 2)
        #expect(try await a.ledger.all().isEmpty)

        b.clock.advance(by: 20)  // b records after the clear, not having seen it yet
        try await b.ledger.record(try Fixture.minimalSend(hash: 3))
        let report = try await a.ledger.sync(to: b.ledger)
        #expect(report.recordsCleared == 2)
        try await b.ledger.sync(to: a.ledger)

        for ledger in [a.ledger, b.ledger] {
            #expect(try await ledger.all().map(\.id) == [try Fixture.minimalSend(hash: 3).id])
        }
        #expect(try await ReplicaSnapshot(a.ledger) == ReplicaSnapshot(b.ledger))
    }

    @Test func aLaterEditOfAClearedRecordWaitsInvisiblyForItsRecordingAgain() async throws {
        let (a, b) = (try await TestLedger(), try await TestLedger())
        let record = try Fixture.minimalSend(hash: 1)
        try await a.ledger.record(record)
        try await a.ledger.sync(to: b.ledger)
        a.clock.advance(by: 10)
        try await a.ledger.clearHistory(vault: "vault-1")
        b.clock.advance(by: 20)
        try await b.ledger.setNote("after the clear", for: record.id)  // b has not seen the clear
        try await b.ledger.sync(to: a.ledger)
        #expect(try await a.ledger.all().isEmpty)  // cleared: facts erased, the note kept invisibly
        a.clock.advance(by: 30)
        #expect(try await a.ledger.record(record).outcome == .recorded)
        #expect(try await a.ledger.transaction(id: record.id)?.note == "after the clear")
        try await a.ledger.sync(to: b.ledger)
        try await b.ledger.sync(to: a.ledger)
        #expect(try await ReplicaSnapshot(a.ledger) == ReplicaSnapshot(b.ledger))
    }

    @Test func clocksFarAheadNeitherPoisonNorWinForever() async throws {
        let a = try await TestLedger()
        let ahead = try await TestLedger(clock: ManualClock(Fixture.start.addingTimeInterval(365 * 86_400)))
        let record = try Fixture.minimalSend(hash: 1)
        try await ahead.ledger.record(record)
        try await ahead.ledger.setNote("from the future", for: record.id)

        let report = try await ahead.ledger.sync(to: a.ledger)
        #expect(report.futureStamps == 2)  // facts and note
        #expect(try await a.ledger.transaction(id: record.id)?.note == "from the future")  // kept
        // The clock was not dragged a year ahead...
        try await a.ledger.record(try Fixture.minimalSend(hash: 2))
        let stamp = try #require(try await a.ledger.state(try Fixture.minimalSend(hash: 2).id)).facts.stamp
        #expect(stamp.millis == a.clock.now.millis)
        // ...and an edit here still replaces the future value.
        try await a.ledger.setNote("edited here", for: record.id)
        try await a.ledger.sync(to: ahead.ledger)
        #expect(try await ahead.ledger.transaction(id: record.id)?.note == "edited here")
    }

    /// Found by the convergence property test: a note written under a clear watermark from a
    /// clock a year ahead was stamped by the local clock, before the watermark, so it showed
    /// here and was erased everywhere else.
    @Test func writesUnderAFarFutureClearAreStampedAfterIt() async throws {
        let here = try await TestLedger()
        let other = try await TestLedger()
        let ahead = try await TestLedger(clock: ManualClock(Fixture.start.addingTimeInterval(365 * 86_400)))
        try await ahead.ledger.clearHistory(vault: "vault-1")
        try await ahead.ledger.sync(to: here.ledger)

        let record = try Fixture.minimalSend(hash: 6)
        try await here.ledger.record(record)
        try await here.ledger.setNote("n1", for: record.id)
        _ = try await here.ledger.updateStatus(record.id, to: .pending)
        try await here.ledger.sync(to: other.ledger)
        try await ahead.ledger.sync(to: other.ledger)

        let seen = try #require(try await other.ledger.transaction(id: record.id))
        #expect(seen.note == "n1" && seen.status == .pending)
        #expect(try await ReplicaSnapshot(other.ledger) == ReplicaSnapshot(here.ledger))
    }

    @Test func aClockAnHourBehindCatchesUpThroughMerges() async throws {
        let a = try await TestLedger()
        let behind = try await TestLedger(clock: ManualClock(Fixture.start.addingTimeInterval(-3600)))
        let record = try Fixture.minimalSend(hash: 1)
        try await a.ledger.record(record)
        try await a.ledger.setNote("a", for: record.id)
        try await a.ledger.sync(to: behind.ledger)
        try await behind.ledger.setNote("edited after seeing a", for: record.id)
        try await behind.ledger.sync(to: a.ledger)
        #expect(try await a.ledger.transaction(id: record.id)?.note == "edited after seeing a")
    }

    @Test func aReadOnlyLedgerRefusesWritesAndMissingFiles() async throws {
        let test = try await TestLedger()
        try await test.ledger.record(try Fixture.send())
        let readOnly = try await Ledger.open(path: test.ledger.path, options: .init(readOnly: true))
        #expect(try await readOnly.all().count == 1)
        await #expect(throws: LedgerError.self) { try await readOnly.record(try Fixture.minimalSend(hash: 9)) }
        await #expect(throws: LedgerError.self) {
            try await Ledger.open(path: test.directory.path("missing.sqlite"), options: .init(readOnly: true))
        }
    }

    @Test func aVersionOneLedgerUpgradesAndKeepsItsRecords() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("v1.sqlite")
        let pool = try DatabasePool(path: path)
        try LedgerSchema.migrator.migrate(pool, upTo: "v1: ledger core")
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO record (id, vault_id, kind, chain, timestamp_ms, tx_hash, to_address, amount, token_symbol, facts_time, facts_replica)
                    VALUES ('f5e912f53e847ac6c6bdef7a84082e66', 'vault-1', 'send', 'ethereum', 1751371200000,
                            '0x0000000000000000000000000000000000000000000000000000000000000001', '0x0000000000000000000000000000000000000001', '1', 'ETH', 1, 1)
                    """
            )
        }
        try pool.close()
        let ledger = try await Ledger.open(path: path)
        #expect(try await ledger.all() == [try Fixture.minimalSend(hash: 1)])
        #expect(try await ledger.changes(vault: "vault-1").recordCount == 1)
        #expect(try await ledger.vaults() == ["vault-1"])
    }

    /// A merge writes only the registers' columns of a stored record whose facts keep their
    /// time, kind and replacement; one whose facts move in time is written whole, so the
    /// listings in time order find it where its facts now put it.
    @Test func factsThatMoveInTimeMoveTheRecordInTheListings() async throws {
        let (a, b) = (try await TestLedger(), try await TestLedger())
        let later = Fixture.start.addingTimeInterval(3600)
        try await a.ledger.record(try Fixture.send(hash: 1))
        try await a.ledger.record(try Fixture.send(hash: 2))
        b.clock.advance(by: 5)
        try await b.ledger.record(try Fixture.send(hash: 1, at: later))  // the same id, facts stamped later
        _ = try await b.ledger.sync(to: a.ledger)

        let moved = try #require(try await a.ledger.transaction(id: try Fixture.send(hash: 1).id))
        #expect(moved.timestamp == later)
        let sinceThen = try await a.ledger.list(HistoryFilter(since: later), limit: 10, after: nil)
        #expect(sinceThen.items.map(\.id) == [moved.id])
        let before = try await a.ledger.list(HistoryFilter(until: later), limit: 10, after: nil)
        #expect(before.items.map(\.id) == [try Fixture.send(hash: 2).id])
        _ = try await a.ledger.sync(to: b.ledger)
        #expect(try await ReplicaSnapshot(a.ledger) == ReplicaSnapshot(b.ledger))
    }
}
