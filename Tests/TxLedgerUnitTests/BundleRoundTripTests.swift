import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Bundles carry a vault between replicas: exported, imported, merged, in both key modes.
@Suite struct BundleRoundTripTests {
    @Test(arguments: try BundleFixture.secrets())
    func aBundleCarriesTheWholeVault(secret: BundleSecret) async throws {
        let (a, b, folder) = (try await TestLedger(), try await TestLedger(), try TemporaryDirectory())
        try await a.ledger.record([
            try Fixture.send(status: .pending), try Fixture.swap(), try Fixture.signature(),
            try Fixture.send(vault: "other", hash: 9),
        ])
        try await a.ledger.updateStatus(try Fixture.send().id, to: .failed(reason: "reverted"))
        try await a.ledger.setNote(nil, for: try Fixture.swap().id)
        try await a.ledger.setHidden(true, for: try Fixture.signature().id)

        let (exported, imported) = try await BundleFixture.transfer(
            from: a.ledger,
            to: b.ledger,
            secret: secret,
            in: folder
        )

        #expect(exported.recordCount == 3 && imported.info.recordCount == 3)
        #expect(imported.info.changes?.vaultId == "vault-1" && imported.info.changes?.origin == a.ledger.replicaID)
        #expect(imported.report.recordsAdded == 3)
        let source = try await a.ledger.changes(vault: "vault-1")
        let target = try await b.ledger.changes(vault: "vault-1")
        #expect(target.records == source.records, "every register and stamp arrives as it was")
        #expect(try await b.ledger.vaults() == ["vault-1"], "only the exported vault travels")
    }

    @Test(arguments: try BundleFixture.secrets())
    func twoReplicasSyncThroughBundlesBothWaysAndConverge(secret: BundleSecret) async throws {
        let (a, b, folder) = (try await TestLedger(), try await TestLedger(), try TemporaryDirectory())
        let shared = try Fixture.send(hash: 1)
        try await a.ledger.record([shared, try Fixture.minimalSend(hash: 2)])
        try await BundleFixture.transfer(from: a.ledger, to: b.ledger, secret: secret, in: folder)

        // Both edit while apart: conflicting outcomes and notes, and a record each.
        a.clock.advance(by: 5)
        try await a.ledger.updateStatus(shared.id, to: .failed(reason: "reverted"))
        try await a.ledger.setNote("from a", for: shared.id)
        try await a.ledger.record(try Fixture.minimalSend(hash: 3))
        b.clock.advance(by: 9)
        try await b.ledger.updateStatus(shared.id, to: .confirmed(at: Fixture.start))
        try await b.ledger.setNote("from b", for: shared.id)
        try await b.ledger.record(try Fixture.minimalSend(hash: 4))

        try await BundleFixture.transfer(from: b.ledger, to: a.ledger, secret: secret, in: folder)
        try await BundleFixture.transfer(from: a.ledger, to: b.ledger, secret: secret, in: folder)

        #expect(try await ReplicaSnapshot(a.ledger) == ReplicaSnapshot(b.ledger))
        let merged = try #require(try await b.ledger.transaction(id: shared.id))
        #expect(merged.status == .confirmed && merged.note == "from b", "b wrote last (its clock is ahead)")
        #expect(try await a.ledger.all().count == 4)
    }

    @Test func importingTheSameBundleAgainChangesNothing() async throws {
        let (a, b, folder) = (try await TestLedger(), try await TestLedger(), try TemporaryDirectory())
        try await a.ledger.record([try Fixture.send(), try Fixture.swap()])
        let path = folder.path("a.txb")
        let secret = BundleSecret.syncKey(.generate())
        try await a.ledger.exportBundle(vault: "vault-1", to: path, secret: secret)
        let first = try await b.ledger.importBundle(at: path, secret: secret)
        let snapshot = try await ReplicaSnapshot(b.ledger)
        let second = try await b.ledger.importBundle(at: path, secret: secret)
        #expect(first.report.recordsAdded == 2)
        #expect(!second.report.changedAnything && second.report.recordsUnchanged == 2)
        #expect(try await ReplicaSnapshot(b.ledger) == snapshot)
    }

    @Test func afterAnExchangeTheDefaultExportIsADelta() async throws {
        let (a, b, folder) = (try await TestLedger(), try await TestLedger(), try TemporaryDirectory())
        let secret = BundleSecret.syncKey(.generate())
        try await a.ledger.record(try (1...50).map { try Fixture.minimalSend(hash: $0) })
        let first = try await BundleFixture.transfer(from: a.ledger, to: b.ledger, secret: secret, in: folder)
        #expect(first.exported.changes?.isFull == true && first.exported.recordCount == 50)
        // b answers: its change set tells a what b holds of a.
        try await b.ledger.record(try Fixture.minimalSend(hash: 100))
        try await BundleFixture.transfer(from: b.ledger, to: a.ledger, secret: secret, in: folder)

        try await a.ledger.setNote("changed", for: try Fixture.minimalSend(hash: 7).id)
        let delta = try await BundleFixture.transfer(from: a.ledger, to: b.ledger, secret: secret, in: folder)
        #expect(delta.exported.changes?.isFull == false)
        // What a changed since b acknowledged: its note, and b's record that a merged (relayed
        // once, crdt.md "Deltas"), not the 49 others.
        #expect(delta.exported.recordCount == 2)
        #expect(delta.imported.report.recordsChanged == 1 && delta.imported.report.recordsUnchanged == 1)
        #expect(try await ReplicaSnapshot(a.ledger) == ReplicaSnapshot(b.ledger))

        let full = try await BundleFixture.transfer(
            from: a.ledger,
            to: b.ledger,
            secret: secret,
            in: folder,
            scope: .full
        )
        #expect(full.exported.recordCount == 51 && !full.imported.report.changedAnything)
        let forPeer = try await BundleFixture.transfer(
            from: a.ledger,
            to: b.ledger,
            secret: secret,
            in: folder,
            scope: .forPeer(b.ledger.replicaID)
        )
        #expect(forPeer.exported.recordCount == 2, "b acknowledged nothing new since")
    }

    @Test func aClearTravelsInABundle() async throws {
        let (a, b, folder) = (try await TestLedger(), try await TestLedger(), try TemporaryDirectory())
        let secret = BundleSecret.syncKey(.generate())
        try await a.ledger.record([try Fixture.minimalSend(hash: 1), try Fixture.minimalSend(hash: 2)])
        try await BundleFixture.transfer(from: a.ledger, to: b.ledger, secret: secret, in: folder)
        a.clock.advance(by: 10)
        try await a.ledger.clearHistory(vault: "vault-1")
        let result = try await BundleFixture.transfer(from: a.ledger, to: b.ledger, secret: secret, in: folder)
        #expect(result.imported.report.recordsCleared == 2)
        #expect(try await b.ledger.all().isEmpty)
    }

    @Test func theBundleHoldsNoneOfThePlaintext() async throws {
        let (a, folder) = (try await TestLedger(), try TemporaryDirectory())
        let records = [try Fixture.send(), try Fixture.swap(), try Fixture.signature()]
        try await a.ledger.record(records)
        for secret in try BundleFixture.secrets() {
            let path = folder.path("\(secret.name).txb")
            try await a.ledger.exportBundle(vault: "vault-1", to: path, secret: secret, passphraseCost: .interactive)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            var needles = [
                "vault-1", "1234567890.123456789012345678", "1234.56", "rent for July", "line one", "USDC", "RUNE",
                "app.uniswap.org", "Sign in to example.com", "eth_sendTransaction", "thorchain", "ethereum",
            ]
            for record in records {
                needles += [
                    record.id.rawValue, record.fromAddress, record.txHash,
                    record.txHash.map { String($0.dropFirst(2)) },
                ].compactMap { $0 }
            }
            for needle in needles {
                for form in Set([needle, needle.lowercased(), needle.uppercased()]) {
                    #expect(bytes.range(of: Data(form.utf8)) == nil, "\(secret.name) bundle contains '\(form)'")
                }
            }
            var origin: [UInt8] = []
            origin.appendBigEndian(UInt64(a.ledger.replicaID.rawValue), width: 8)
            #expect(bytes.range(of: Data(origin)) == nil, "the replica id is not readable")

            // The same content sealed again with the same secret shares nothing after the
            // fixed fields (magic, version, mode, KDF cost): two bundles cannot be linked.
            let again = folder.path("\(secret.name)-again.txb")
            try await a.ledger.exportBundle(vault: "vault-1", to: again, secret: secret, passphraseCost: .interactive)
            let second = try Data(contentsOf: URL(fileURLWithPath: again))
            for (start, end) in [(22, 38), (38, 54), (54, 78), (78, 110), (110, 160)] {
                #expect(bytes[start..<end] != second[start..<end], "bytes \(start)..<\(end) differ between two bundles")
            }
        }
    }

    @Test func aBundleStreamsAcrossChunksAndExportingAnUnknownVaultFails() async throws {
        let (a, b, folder) = (try await TestLedger(), try await TestLedger(), try TemporaryDirectory())
        try await a.ledger.record(try BundleFixture.manyRecords())
        let secret = BundleSecret.syncKey(.generate())
        let (exported, imported) = try await BundleFixture.transfer(
            from: a.ledger,
            to: b.ledger,
            secret: secret,
            in: folder
        )
        #expect(exported.byteCount > 2 * BundleWriter.chunkSize, "the test needs several chunks")
        #expect(imported.report.recordsAdded == 700)
        #expect(try await ReplicaSnapshot(a.ledger) == ReplicaSnapshot(b.ledger))
        await #expect(throws: LedgerError.unknownVault("nope")) {
            try await a.ledger.exportBundle(vault: "nope", to: folder.path("x.txb"), secret: secret)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.txb")))
    }
}
