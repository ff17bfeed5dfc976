import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerReplication
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

/// The events of a user's life that once made sync lose data silently, through bundles with the
/// default export scope (crdt.md, "Restored and cloned files").
struct RestoreAndCloneTests {
    let secret = BundleSecret.syncKey(.generate())
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    /// `from` exports with the default scope, `to` imports.
    @discardableResult
    func send(_ from: TestLedger, _ to: TestLedger) async throws -> BundleImport {
        try await BundleFixture.transfer(from: from.ledger, to: to.ledger, secret: secret, in: folder).imported
    }

    func record(_ ledger: TestLedger, _ hashes: ClosedRange<Int>) async throws {
        ledger.clock.advance(by: 1)
        try await ledger.ledger.record(try hashes.map { try Fixture.minimalSend(hash: $0) })
    }

    /// A and P sync; A records 20 more and syncs them to P; A's file is restored from the
    /// earlier backup; A records 41 new ones and they sync: P must end with all 66.
    @Test func aRestoredBackupLosesNothingThatWasMadeAfterIt() async throws {
        let a = try await TestLedger()
        let p = try await TestLedger()
        try await record(a, 1...5)
        try await send(a, p)
        try await send(p, a)
        let backup = try await TestLedger(copyOf: a.ledger, clock: a.clock)
        try await record(a, 6...25)
        try await send(a, p)
        try await send(p, a)

        let restored = try await TestLedger(copyOf: backup.ledger, clock: a.clock)
        try await record(restored, 26...66)
        for _ in 0..<2 {
            try await send(restored, p)
            try await send(p, restored)
        }
        #expect(try await p.ledger.all().count == 66)
        #expect(try await restored.ledger.all().count == 66)
        #expect(try await ReplicaSnapshot(p.ledger) == ReplicaSnapshot(restored.ledger))
        #expect(restored.ledger.replicaID != a.ledger.replicaID, "the restored file noticed and took a new replica id")
    }

    /// A restored file that imports first: P's claim names an epoch it never had.
    @Test func aRestoredFileThatHearsFirstTakesANewIdentityAndConverges() async throws {
        let a = try await TestLedger()
        let p = try await TestLedger()
        try await record(a, 1...3)
        try await send(a, p)
        let backup = try await TestLedger(copyOf: a.ledger, clock: a.clock)
        try await record(a, 4...10)
        try await send(a, p)
        try await send(p, a)

        let restored = try await TestLedger(copyOf: backup.ledger, clock: a.clock)
        try await record(restored, 11...30)
        let heard = try await send(p, restored)
        #expect(heard.report.newReplicaID == restored.ledger.replicaID)
        try await send(restored, p)
        try await send(p, restored)
        #expect(try await p.ledger.all().count == 30)
        #expect(try await ReplicaSnapshot(p.ledger) == ReplicaSnapshot(restored.ledger))
    }

    /// A phone set up from another's backup goes on beside it: both copies and a third device
    /// edit the same records at the same moments (equal stamps) for many rounds.
    @Test func clonedFilesAndAThirdDeviceConverge() async throws {
        let a = try await TestLedger()
        let c = try await TestLedger()
        try await record(a, 1...4)
        try await send(a, c)
        try await send(c, a)
        let twin = try await TestLedger(copyOf: a.ledger, clock: ManualClock(a.clock.now))
        let ids = try (1...4).map { try Fixture.minimalSend(hash: $0).id }
        for round in 0..<6 {
            for (n, device) in [a, twin, c].enumerated() {
                device.clock.advance(by: 1)
                try await device.ledger.setNote("round \(round) from \(n)", for: ids[round % 4])
                try await device.ledger.setLabels(["r\(round)", "d\(n)"], for: ids[(round + 1) % 4])
                try await record(device, (100 * (round + 1) + 10 * n)...(100 * (round + 1) + 10 * n + 2))
            }
            try await send(a, c)
            try await send(twin, c)
            try await send(c, a)
            try await send(c, twin)
            try await send(a, twin)
        }
        for _ in 0..<2 {
            for (from, to) in [(a, c), (twin, c), (c, a), (c, twin), (a, twin), (twin, a)] { try await send(from, to) }
        }
        let reference = try await ReplicaSnapshot(c.ledger)
        #expect(try await ReplicaSnapshot(a.ledger) == reference)
        #expect(try await ReplicaSnapshot(twin.ledger) == reference)
        #expect(try await c.ledger.all().count == 4 + 6 * 3 * 3)
        #expect(a.ledger.replicaID != twin.ledger.replicaID, "one copy noticed and took a new replica id")
    }
}

extension RestoreAndCloneTests {
    /// More epochs since the last sync than a reader accepts (over 65536 processes wrote): the
    /// change set is a full one, with one epoch, which every reader takes.
    @Test func tooManyEpochsSinceTheLastSyncMakeAFullChangeSet() async throws {
        let a = try await TestLedger()
        let p = try await TestLedger()
        try await record(a, 1...2)
        try await send(a, p)
        try await send(p, a)
        try await record(a, 3...3)
        try await a.ledger.database.pool.write { db in
            let seq = try LedgerMeta.seq(db)
            for n in 1...(ChangeSetHeader.maxEpochs + 1) {
                try db.execute(
                    sql: "INSERT INTO epoch (id, first_seq) VALUES (?, ?)",
                    arguments: [EpochID.random().rawValue, seq + Int64(n)]
                )
            }
            try db.execute(
                sql: "UPDATE ledger_meta SET seq = ?",
                arguments: [seq + Int64(ChangeSetHeader.maxEpochs + 1)]
            )
        }
        let delta = try await a.ledger.changes(vault: "vault-1", forPeer: p.ledger.replicaID)
        #expect(delta.header.isFull && delta.header.lineage?.count == 1 && delta.records.count == 3)
        let imported = try await send(a, p)
        #expect(imported.report.gaps.isEmpty && imported.info.recordCount == 3)
    }
}

extension RestoreAndCloneTests {
    /// A ledger's own old exports, read back, change nothing; a format 2 one (no epochs) neither.
    @Test func readingItsOwnExportsBackKeepsTheReplicaID() async throws {
        let a = try await TestLedger()
        try await record(a, 1...3)
        let before = a.ledger.replicaID
        let own = try await a.ledger.changes(vault: "vault-1")
        #expect(try await a.ledger.merge(own).newReplicaID == nil)
        let legacy = ChangeSet(
            header: ChangeSetHeader(
                vaultId: "vault-1",
                origin: before,
                since: 0,
                through: own.header.through,
                knowledge: [:],
                clearedThrough: nil
            ),
            records: own.records
        )
        #expect(try await a.ledger.merge(legacy).newReplicaID == nil)
        #expect(a.ledger.replicaID == before)
    }
}
