import Foundation
import Testing
@testable import TxLedger
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
            guard case LedgerError.storage = error else { return false }
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
        try await test.ledger.exportBundle(vault: "vault-1", to: folder.path("a.txb"), secret: .syncKey(loaded), scope: .full)
        let info = try await BundleInfo.read(contentsOf: folder.path("a.txb"), secret: .syncKey(key))
        #expect(info.recordCount == 1 && info.changes?.vaultId == "vault-1")
    }
}
