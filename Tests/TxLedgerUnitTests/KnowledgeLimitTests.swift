import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

/// What a replica learns of third parties is bounded when it learns, and what it writes is
/// always within what a reader accepts (Specs/crdt.md, "Limits of knowledge").
struct KnowledgeLimitTests {
    /// A full change set from `origin` whose knowledge names `count` replicas.
    static func changeSet(from origin: ReplicaID, knowing count: Int) -> ChangeSet {
        let knowledge = Dictionary(
            uniqueKeysWithValues: (1...count).map { (ReplicaID(rawValue: Int64($0) << 8), Int64(7)) }
        )
        let header = ChangeSetHeader(
            vaultId: "main",
            origin: origin,
            since: 0,
            through: 3,
            knowledge: knowledge,
            lineage: [Epoch(id: EpochID(rawValue: 99), firstSeq: 1)],
            clearedThrough: nil
        )
        return ChangeSet(header: header, records: [])
    }

    @Test func aChangeSetNamingMoreReplicasThanTheLimitTeachesOnlyUpToIt() async throws {
        let a = try await TestLedger()
        try await a.ledger.record(try Fixture.minimalSend(vault: "main", hash: 1))
        let report = try await a.ledger.merge(Self.changeSet(from: ReplicaID(rawValue: 7), knowing: 65_535))
        let peers = try await a.ledger.peers(vault: "main")
        #expect(peers.count == Ledger.maxPeersPerVault)
        #expect(peers.contains { $0.replica == ReplicaID(rawValue: 7) }, "the origin itself is kept")
        #expect(report.peersDropped.isEmpty, "nothing beyond the limit was stored: \(report.peersDropped)")
        let written = try await a.ledger.changes(vault: "main")
        #expect(written.knowledge.count <= Ledger.maxPeersPerVault)
    }

    /// Every writing path (a change set, a bundle, a folder's file) keeps to the limit even
    /// when the file holds far more (an older version's, or one edited by hand), and what it
    /// writes is read by another ledger of this version.
    @Test func everyWriterStaysWithinTheReadersLimits() async throws {
        let a = try await TestLedger()
        let b = try await TestLedger()
        try await a.ledger.record(try Fixture.minimalSend(vault: "main", hash: 1))
        try await a.ledger.database.pool.write { db in
            let insert = try db.makeStatement(
                sql: "INSERT INTO peer (vault_id, replica_id, have_seq, acked_seq) VALUES ('main', ?, 5, 0)"
            )
            for n in 1...(ChangeSetHeader.maxEpochs + 10) { try insert.execute(arguments: [Int64(n) << 8]) }
        }
        #expect(try await a.ledger.changes(vault: "main").knowledge.count == Ledger.maxPeersPerVault)
        let secret = BundleSecret.syncKey(SyncKey.generate())
        let path = a.directory.path("a.txb")
        try await a.ledger.exportBundle(vault: "main", to: path, secret: secret)
        #expect(try await b.ledger.importBundle(at: path, secret: secret).report.recordsAdded == 1)
        let folder = a.directory.path("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let synced = try await a.ledger.sync(folder: folder, secret: secret)
        #expect(synced.peersDropped == ["main": ChangeSetHeader.maxEpochs + 10 - Ledger.maxPeersPerVault])
        #expect(try await b.ledger.sync(folder: folder, secret: secret).skipped.isEmpty)
    }

    @Test func aPeerSilentForAYearIsDropped() async throws {
        let clock = ManualClock()
        let a = try await TestLedger(clock: clock)
        let b = try await TestLedger(clock: clock)
        try await a.ledger.record(try Fixture.minimalSend(vault: "main", hash: 1))
        try await b.ledger.merge(try await a.ledger.changes(vault: "main"))
        try await a.ledger.merge(try await b.ledger.changes(vault: "main"))
        #expect(try await a.ledger.peers().count == 1)
        clock.advance(by: TimeInterval(PeerKnowledge.maxSilenceMillis / 1000 - 1))
        #expect(try await a.ledger.dropPeersBeyondLimits().isEmpty)
        clock.advance(by: 2)
        #expect(try await a.ledger.dropPeersBeyondLimits() == ["main": 1])
        #expect(try await a.ledger.peers().isEmpty)
    }
}
