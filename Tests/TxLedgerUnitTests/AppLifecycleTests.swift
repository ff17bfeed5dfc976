import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// What an app's main actor calls: async forms of what reads files or derives keys, and
/// closing a ledger.
struct AppLifecycleTests {
    @Test func aClosedLedgerFailsClearlyAndTheFileOpensAgain() async throws {
        let test = try await TestLedger()
        try await test.ledger.record(try Fixture.minimalSend(hash: 1))
        try await test.ledger.close()
        await #expect {
            try await test.ledger.list(limit: 10)
        } throws: { error in
            guard (error as? LedgerError)?.code == .storage else { return false }
            return true
        }
        let again = try await test.reopened()
        #expect(try await again.list(limit: 10).items.count == 1)
    }

    @Test func keysAndBundlesReadAsynchronously() async throws {
        let test = try await TestLedger()
        try await test.ledger.record(try Fixture.minimalSend(hash: 1))
        let folder = try TemporaryDirectory()
        let key = SyncKey.generate()
        try key.write(toNewFile: folder.path("vault.key"))
        let loaded = try await SyncKey.load(contentsOfFile: folder.path("vault.key"))
        #expect(loaded.printableText() == key.printableText())
        try await test.ledger.exportBundle(
            vault: "vault-1",
            to: folder.path("a.txb"),
            secret: .syncKey(loaded),
            scope: .full
        )
        let info = try await BundleInfo.read(contentsOf: folder.path("a.txb"), secret: .syncKey(key))
        #expect(info.recordCount == 1 && info.changes?.vaultId == "vault-1")
    }

    @Test func bundlesTravelAsData() async throws {
        let phone = try await TestLedger()
        let laptop = try await TestLedger()
        try await phone.ledger.record([try Fixture.minimalSend(hash: 1), try Fixture.minimalSend(hash: 2)])
        let secret = BundleSecret.syncKey(.generate())
        let data = try await phone.ledger.exportBundle(vault: "vault-1", secret: secret, scope: .full)
        #expect(data.starts(with: Array("TXLBUNDL".utf8)))
        let imported = try await laptop.ledger.importBundle(data, secret: secret)
        #expect(imported.report.recordsAdded == 2)
        var damaged = data
        damaged[damaged.count - 1] ^= 0x01
        await #expect(throws: BundleError.payloadTampered(chunk: 0)) {
            try await laptop.ledger.importBundle(damaged, secret: secret)
        }
        #expect(try await laptop.ledger.list(limit: 10).items.count == 2)
    }
}
