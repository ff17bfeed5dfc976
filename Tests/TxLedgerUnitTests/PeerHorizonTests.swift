import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// The default export waits only for peers heard from within the horizon, or not forgotten
/// (crdt.md, "Deltas and peers").
struct PeerHorizonTests {
    let secret = BundleSecret.syncKey(.generate())
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    func exportedRecords(_ from: TestLedger) async throws -> Int? {
        try await from.ledger.exportBundle(
            vault: "vault-1",
            to: folder.path("\(UUID().uuidString).txb"),
            secret: secret
        ).recordCount
    }

    @Test func aPeerNotHeardFromForLongerThanTheHorizonNoLongerHoldsDeltasBack() async throws {
        let a = try await TestLedger()
        let b = try await TestLedger()
        let c = try await TestLedger()
        try await a.ledger.record(try (1...10).map { try Fixture.minimalSend(hash: $0) })
        for peer in [b, c] {
            try await a.ledger.sync(to: peer.ledger)
            try await peer.ledger.sync(to: a.ledger)
        }
        // C is lost; A and B go on. A month and a day later, B still syncs.
        try await a.ledger.record(try (11...13).map { try Fixture.minimalSend(hash: $0) })
        try await a.ledger.sync(to: b.ledger)
        try await b.ledger.sync(to: a.ledger)
        a.clock.advance(by: 31 * 86_400)
        try await b.ledger.sync(to: a.ledger)
        try await a.ledger.record(try (14...15).map { try Fixture.minimalSend(hash: $0) })
        #expect(try await exportedRecords(a) == 2, "only what B lacks")
        let peers = try await a.ledger.peers()
        #expect(peers.first { $0.replica == c.ledger.replicaID }.map { !$0.awaited && !$0.holdingBack } == true)
        #expect(peers.first { $0.replica == b.ledger.replicaID }?.holdingBack == true)

        // Within the horizon, C would still be waited for: a ledger with a longer horizon sees it so.
        let patient = try await Ledger.open(
            path: a.ledger.path,
            options: .init(
                wallClock: a.clock.wallClock,
                logger: .quiet,
                peerHorizonMillis: 60 * 86_400_000
            )
        )
        #expect(
            try await patient.exportBundle(vault: "vault-1", to: folder.path("p.txb"), secret: secret).recordCount == 5
        )
    }

    @Test func aForgottenPeerIsNotWaitedForAndAnUnknownOneIsAClearError() async throws {
        let a = try await TestLedger()
        let c = try await TestLedger()
        try await a.ledger.record(try (1...4).map { try Fixture.minimalSend(hash: $0) })
        try await a.ledger.sync(to: c.ledger)
        try await c.ledger.sync(to: a.ledger)
        try await a.ledger.record(try Fixture.minimalSend(hash: 5))
        #expect(try await exportedRecords(a) == 1)
        let stranger = ReplicaID(rawValue: 42)
        await #expect(throws: LedgerError.unknownPeer(stranger, vault: nil)) {
            try await a.ledger.forget(peer: stranger)
        }
        #expect(try await a.ledger.forget(peer: c.ledger.replicaID) == 1)
        #expect(try await exportedRecords(a) == 5, "no peer awaited: everything")
        // C comes back: it is heard from again, and awaited.
        try await c.ledger.sync(to: a.ledger)
        #expect(try await a.ledger.peers().first?.awaited == true)
    }
}
