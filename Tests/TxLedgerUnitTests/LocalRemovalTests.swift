import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Removing from this device only (Specs/crdt.md, "Removing from this device").
struct LocalRemovalTests {
    let secret = BundleSecret.syncKey(.generate())

    @Test func aRecordRemovedHereStaysElsewhereAndComesBackWhenItChanges() async throws {
        let phone = try await TestLedger()
        let laptop = try await TestLedger()
        try await phone.ledger.record([try Fixture.minimalSend(hash: 1), try Fixture.minimalSend(hash: 2)])
        try await phone.ledger.sync(to: laptop.ledger)
        try await laptop.ledger.sync(to: phone.ledger)
        let id = try Fixture.minimalSend(hash: 1).id
        let removed = try await phone.ledger.removeFromThisDevice(id)
        #expect(removed.id == id)
        #expect(try await phone.ledger.transaction(id: id) == nil)
        await #expect(throws: LedgerError.notFound(id.rawValue)) { try await phone.ledger.removeFromThisDevice(id) }
        // Nothing to send: it is not a change.
        #expect(try await phone.ledger.changes(vault: "vault-1", forPeer: laptop.ledger.replicaID).recordCount == 0)
        try await phone.ledger.sync(to: laptop.ledger)
        #expect(try await laptop.ledger.transaction(id: id) != nil)
        // It comes back once it changes elsewhere.
        laptop.clock.advance(by: 5)
        try await laptop.ledger.setNote("still here", for: id)
        try await laptop.ledger.sync(to: phone.ledger)
        #expect(try await phone.ledger.transaction(id: id)?.note == "still here")
    }

    @Test func aForgottenVaultGoesFromThisDeviceOnlyAndAFolderSyncBringsItBack() async throws {
        let folder = try TemporaryDirectory()
        let phone = try await TestLedger()
        let laptop = try await TestLedger()
        try await phone.ledger.record([
            try Fixture.minimalSend(vault: "main", hash: 1), try Fixture.minimalSend(vault: "main", hash: 2),
            try Fixture.minimalSend(vault: "savings", hash: 3),
        ])
        for ledger in [phone, laptop, phone] {
            _ = try await ledger.ledger.sync(folder: folder.url.path, secret: secret)
        }
        #expect(try await phone.ledger.forgetVault("main") == 2)
        #expect(try await phone.ledger.vaults() == ["savings"])
        #expect(try await phone.ledger.peers(vault: "main").isEmpty)
        await #expect(throws: LedgerError.unknownVault("main")) { try await phone.ledger.forgetVault("main") }
        #expect(
            try await laptop.ledger.list(HistoryFilter(vault: "main"), limit: 10).items.count == 2,
            "the other device keeps it"
        )
        let back = try await phone.ledger.sync(folder: folder.url.path, secret: secret)
        #expect(back.vaults["main"]?.recordsAdded == 2)
        #expect(try await phone.ledger.list(HistoryFilter(vault: "main"), limit: 10).items.count == 2)
    }
}
