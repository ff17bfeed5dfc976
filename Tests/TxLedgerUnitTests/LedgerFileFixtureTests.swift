import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// A ledger file written by this release (schema v7), kept in `Tests/Fixtures/ledger-v7/` with
/// what it holds (`expected.json`): every later version must open it with every record,
/// register, stamp, newer field, watermark and peer intact, and keep syncing from it.
/// `TXLEDGER_WRITE_FIXTURES=1 swift test --filter writeLedgerFixture` writes a new one (only
/// ever for a new release: an old fixture is never rewritten). One edit was made by hand: its
/// record's simulated newer-version facts were numbered 57 and 58, which became real fields
/// (57 `replaces`), so their two tags in `newer_fields` were renumbered 100 and 101.
struct LedgerFileFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/ledger-v7")

    /// What a ledger holds, in a form that compares.
    struct Held: Codable, Equatable {
        let replica: String
        let vaults: [String: BundleVector.Contents]
        let peers: [String]

        init(_ ledger: Ledger) async throws {
            replica = ledger.replicaID.description
            var vaults: [String: BundleVector.Contents] = [:]
            for vault in try await ledger.vaults() {
                let changes = try await ledger.changes(vault: vault)
                vaults[vault] = BundleVector.Contents(changes.header, records: changes.records.sorted { $0.id < $1.id })
            }
            self.vaults = vaults
            peers = try await ledger.peers(vault: nil).map {
                "\($0.vault) \($0.replica) holds \($0.holdsOursThrough) held \($0.heldThrough)"
            }.sorted()
        }
    }

    @Test func theFileOfThisReleaseOpensWithEverythingItHeld() async throws {
        let expected = try JSONDecoder().decode(
            Held.self,
            from: Data(contentsOf: Self.folder.appendingPathComponent("expected.json"))
        )
        let copy = try TemporaryDirectory()
        try FileManager.default.copyItem(
            atPath: Self.folder.appendingPathComponent("ledger.sqlite").path,
            toPath: copy.path("ledger.sqlite")
        )
        let ledger = try await Ledger.open(path: copy.path("ledger.sqlite"), options: .init(logger: .quiet))
        #expect(try await Held(ledger) == expected)

        // It keeps syncing: a new device gets all of it from one full export.
        let secret = BundleSecret.syncKey(.generate())
        let fresh = try await TestLedger()
        for vault in expected.vaults.keys {
            try await BundleFixture.transfer(
                vault,
                from: ledger,
                to: fresh.ledger,
                secret: secret,
                in: copy,
                scope: .full
            )
            let there = try await fresh.ledger.changes(vault: vault).records.sorted { $0.id < $1.id }
            #expect(
                BundleVector.Contents(try await ledger.changes(vault: vault).header, records: there).records
                    == expected.vaults[vault]?.records
            )
        }
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["TXLEDGER_WRITE_FIXTURES"] == "1"))
    func writeLedgerFixture() async throws {
        try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
        let path = Self.folder.appendingPathComponent("ledger.sqlite").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let clock = ManualClock()
        let ledger = try await Ledger.open(path: path, options: .init(wallClock: clock.wallClock, logger: .quiet))
        let peer = try await TestLedger(clock: ManualClock(clock.now))

        // Every kind and register, an erased record kept for a later note, a peer, a watermark.
        try await ledger.record([try Fixture.minimalSend(vault: "main", hash: 90)])
        clock.advance(by: 1)
        try await ledger.clearHistory(vault: "main")
        clock.advance(by: 1)
        try await ledger.record([
            try Fixture.send(vault: "main", status: .pending), try Fixture.swap(vault: "main"),
            try Fixture.signature(vault: "main"), try Fixture.minimalSend(vault: "savings", hash: 5),
        ])
        try await ledger.updateStatus(try Fixture.send(vault: "main").id, to: .confirmed(at: clock.now))
        try await ledger.setLabels(["tax"], for: try Fixture.swap(vault: "main").id)
        try await ledger.setHidden(true, for: try Fixture.signature(vault: "main").id)
        peer.clock.advance(by: 3)  // after the clear: the peer's record stays visible
        try await peer.ledger.record(try Fixture.minimalSend(vault: "main", hash: 7))
        try await peer.ledger.sync(to: ledger)
        try await ledger.sync(to: peer.ledger)
        try await peer.ledger.sync(to: ledger)
        // A newer version's fields, as a newer device would send them.
        let newer = try NewerVersion.extended(
            RecordState(
                recording: try Fixture.minimalSend(vault: "main", hash: 8),
                stamp: Stamp(millis: clock.now.millis, replica: ReplicaID(rawValue: 0x0C))
            ),
            registerStamp: Stamp(millis: clock.now.millis + 10, replica: ReplicaID(rawValue: 0x0C))
        )
        try await ledger.merge(
            ChangeSet(
                header: ChangeSetHeader(
                    vaultId: "main",
                    origin: ReplicaID(rawValue: 0x0C),
                    since: 0,
                    through: 1,
                    knowledge: [:],
                    lineage: [Epoch(id: EpochID(rawValue: 0x0C), firstSeq: 1)],
                    clearedThrough: nil
                ),
                records: [newer]
            )
        )
        _ = try await ledger.database.pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        let held = try await Held(ledger)
        try await ledger.close()
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(held).write(to: Self.folder.appendingPathComponent("expected.json"))
    }
}
