import Foundation
import GRDB
import PropertyBased
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// `txledger import`, `merge` and `record` killed with SIGKILL at many moments, as a phone kills
/// an app: afterwards the ledger opens, passes `PRAGMA integrity_check`, and holds all of what
/// the killed command was writing or none of it; every acknowledged record is there.
@Suite(.serialized) struct CrashSafetyTests {
    /// Records in the bundle and in the other replica: enough for a write of some seconds in a
    /// debug build, so that kills land in every phase.
    static let records = 3000

    let folder: TemporaryDirectory
    let key: String
    /// A ledger that holds records of its own (two vaults); each run works on a copy of it.
    let pristine: String

    init() async throws {
        folder = try TemporaryDirectory()
        key = folder.path("vault.key")
        pristine = folder.path("pristine.sqlite")
        try await CLI(db: pristine).run(["keygen", "--out", key])
        let ledger = try await Self.open(pristine)
        try await ledger.record((1...20).map { try Fixture.minimalSend(hash: 100_000 + $0) })
        try await ledger.record(try Fixture.minimalSend(vault: "vault-2", hash: 1))
        try Self.checkpoint(ledger)
    }

    /// A full bundle of `records` records of "vault-1", sealed with the test's key.
    private func bigBundle() async throws -> String {
        let source = try await Self.open(folder.path("source.sqlite"))
        try await source.record(try BundleFixture.manyRecords(Self.records))
        let bundle = folder.path("big.txb")
        try await source.exportBundle(
            vault: "vault-1",
            to: bundle,
            secret: .syncKey(try SyncKey(contentsOfFile: key)),
            scope: .full
        )
        return bundle
    }

    @Test func anImportKilledAnywhereLeavesAllOfTheBundleOrNoneOfIt() async throws {
        try await expectAllOrNothing(["import", try await bigBundle(), "--key-file", key])
    }

    /// Into a ledger that holds no record, an import runs in SQLite's rollback-journal mode
    /// (`LedgerDatabase.writeIntoEmpty`): killed anywhere, before its switch out of the WAL,
    /// inside its write or before the switch back, the ledger opens holding none of the bundle
    /// or all of it.
    @Test func aLoadIntoAnEmptyLedgerKilledAnywhereLeavesAllOfTheBundleOrNoneOfIt() async throws {
        let bundle = try await bigBundle()
        let empty = folder.path("empty.sqlite")
        try Self.checkpoint(try await Self.open(empty))
        try await expectAllOrNothing(["import", bundle, "--key-file", key], from: empty, throughJournal: true)
    }

    @Test func aMergeKilledAnywhereLeavesAllOfTheOtherReplicaOrNoneOfIt() async throws {
        let other = folder.path("other.sqlite")
        let source = try await Self.open(other)
        try await source.record(try BundleFixture.manyRecords(Self.records))
        try Self.checkpoint(source)
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        try await expectAllOrNothing(["merge", other])
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before, "the other replica's file is only read")
    }

    /// The same for another replica's file merged into a ledger that holds no record.
    @Test func aMergeIntoAnEmptyLedgerKilledAnywhereLeavesAllOfTheOtherReplicaOrNoneOfIt() async throws {
        let other = folder.path("other-full.sqlite")
        let source = try await Self.open(other)
        try await source.record(try BundleFixture.manyRecords(Self.records))
        try Self.checkpoint(source)
        let empty = folder.path("empty-merge.sqlite")
        try Self.checkpoint(try await Self.open(empty))
        try await expectAllOrNothing(["merge", other], from: empty, throughJournal: true)
    }

    @Test func aRecordLoopKilledAtRandomKeepsEveryAcknowledgedRecord() async throws {
        let cli = CLI(db: try copy(pristine, as: "loop.sqlite"))
        func send(_ n: Int) -> [String] {
            [
                "record", "send", "--vault", "loop", "--chain", "ethereum", "--hash", Fixture.evmHash(n), "--to",
                Fixture.evmAddress(2),
                "--amount", "0.000000000000000001", "--token", "ETH", "--at", "2025-07-01T00:00:00Z",
            ]
        }
        let first = try await KilledRun.run(cli, send(1), killAt: .never)
        try #require(first.status == 0)
        var acknowledged: Set<String> = [Fixture.evmHash(1)]
        var killed = 0
        var rng = Xoshiro(seed: (7, 7, 7, 7))
        for n in 2...30 {
            // Two in three runs are killed, somewhere between the start and a little past a whole run.
            let moment: KilledRun.Moment =
                n % 3 == 0 ? .never : .after(first.seconds * Double.random(in: 0.1...1.2, using: &rng))
            let outcome = try await KilledRun.run(cli, send(n), killAt: moment)
            if outcome.killed {
                killed += 1
            } else if outcome.status == 0 {
                acknowledged.insert(Fixture.evmHash(n))
            }
            let ledger = try await Self.open(cli.db)
            try Self.expectIntact(ledger)
            let stored = Set(
                try await ledger.list(HistoryFilter(vault: "loop"), limit: 100).items.compactMap(\.facts.txHash)
            )
            #expect(
                acknowledged.isSubset(of: stored),
                "after run \(n) (\(moment)): \(acknowledged.subtracting(stored).count) acknowledged records are missing"
            )
        }
        #expect(killed >= 5 && acknowledged.count >= 10, "killed \(killed), acknowledged \(acknowledged.count)")
    }

    /// Runs `arguments` once to its end on a copy of `start` (the pristine ledger unless said),
    /// then again on fresh copies killed at fractions of that run's time and of the size its
    /// write-ahead log reached: each killed copy must open intact and equal either `start` or
    /// the completed one. Some kills must land inside the write (its WAL written, or with
    /// `throughJournal` its rollback journal; nothing of it held) for the test to mean anything.
    private func expectAllOrNothing(
        _ arguments: [String],
        from start: String? = nil,
        throughJournal: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let pristine = start ?? pristine
        let reference = try copy(pristine, as: "reference.sqlite")
        let complete = try await KilledRun.run(CLI(db: reference), arguments, killAt: .never)
        try #require(!complete.killed && complete.status == 0, sourceLocation: sourceLocation)
        let all = try await ReplicaSnapshot(try await Self.open(reference))
        let none = try await ReplicaSnapshot(try await Self.open(pristine))
        try #require(all != none, sourceLocation: sourceLocation)

        let moments: [KilledRun.Moment] =
            [0.1, 0.25, 0.4, 0.55, 0.7, 0.85].map { .after(complete.seconds * $0) }
            + (complete.largestWAL > 0
                ? [1.0 / 16, 0.25, 0.5, 0.75, 0.95].map { .walReaches(Int(Double(complete.largestWAL) * $0)) }
                : [])
        var insideTheWrite = 0
        for (index, moment) in moments.enumerated() {
            let path = try copy(pristine, as: "killed-\(index).sqlite")
            let outcome = try await KilledRun.run(CLI(db: path), arguments, killAt: moment)
            let ledger = try await Self.open(path)
            try Self.expectIntact(ledger, sourceLocation: sourceLocation)
            let state = try await ReplicaSnapshot(ledger)
            #expect(
                state == none || state == all,
                "killed \(moment): neither none nor all of it",
                sourceLocation: sourceLocation
            )
            let written = throughJournal ? outcome.largestJournal : outcome.largestWAL
            if outcome.killed && written > 0 && state == none { insideTheWrite += 1 }
        }
        #expect(
            insideTheWrite >= 3,
            "only \(insideTheWrite) kills landed inside the write",
            sourceLocation: sourceLocation
        )
    }

    private func copy(_ path: String, as name: String) throws -> String {
        let target = folder.path(name)
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: path, toPath: target)
        return target
    }

    static func open(_ path: String) async throws -> Ledger {
        try await Ledger.open(path: path, options: .init(logger: .quiet))
    }

    /// Moves everything into the main file, so that copying it alone copies the ledger.
    static func checkpoint(_ ledger: Ledger) throws {
        try ledger.database.pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    static func expectIntact(_ ledger: Ledger, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let integrity = try ledger.database.pool.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        #expect(integrity == ["ok"], sourceLocation: sourceLocation)
    }
}
