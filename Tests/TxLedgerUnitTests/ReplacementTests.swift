import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// A speed-up or cancel names the transaction it replaces; whichever of the two is proven
/// confirmed, the other fails, replaced by it, on every device, and the history shows them as
/// one story (Specs/status-tracking.md, "Replacements").
struct ReplacementTests {
    /// The original (nonce 7, hash 1) and its speed-up (nonce 7, hash 2), both pending.
    private func pair(vault: String = "vault-1") throws -> (original: TransactionRecord, speedUp: TransactionRecord) {
        let original = try StatusFixture.evmSend(1, nonce: 7)
        let speedUp = try TransactionRecord(
            facts: try TransactionFacts(
                vaultId: original.vaultId,
                chain: original.chain,
                timestamp: original.timestamp.addingTimeInterval(30),
                txHash: Fixture.evmHash(2).uppercased().replacingOccurrences(of: "0X", with: "0x"),
                fromAddress: original.fromAddress,
                nonce: 7,
                extras: ["replaces": Fixture.evmHash(1)],
                details: original.details
            ),
            status: .pending
        )
        return (original, speedUp)
    }

    @Test func aSpeedUpThatConfirmsEndsItsOriginalAsReplacedByIt() async throws {
        let test = try await TestLedger()
        let (original, speedUp) = try pair()
        try await test.ledger.record([original, speedUp])
        let receipt = StatusUpdate.confirmed(at: StatusFixture.now, block: 100, feePaid: try DecimalAmount("0.0004"))
        #expect(try await test.ledger.updateStatus(speedUp.id, to: receipt).changed)

        let replaced = try #require(try await test.ledger.transaction(id: original.id))
        #expect(replaced.status == .failed && replaced.statusEvidence == .proof)
        #expect(
            replaced.replacedBy == Fixture.evmHash(2) && replaced.failureReason == "replaced by \(Fixture.evmHash(2))"
        )
        let json = String(decoding: try JSONEncoder().encode(replaced), as: UTF8.self)
        #expect(json.contains("\"replacedBy\":\"\(Fixture.evmHash(2))\""))
        let speedUpJSON = String(
            decoding: try JSONEncoder().encode(try #require(try await test.ledger.transaction(id: speedUp.id))),
            as: UTF8.self
        )
        #expect(speedUpJSON.contains("\"replaces\":\"\(Fixture.evmHash(1))\""))

        // One story: the original is folded under its speed-up, and a filter shows it.
        let listed = try await test.ledger.list(HistoryFilter(vault: "vault-1"), limit: 10).items
        #expect(listed.map(\.id) == [speedUp.id])
        #expect(try await test.ledger.tabCounts(HistoryFilter(vault: "vault-1")).overview == 1)
        var all = HistoryFilter(vault: "vault-1")
        all.includeReplaced = true
        #expect(try await test.ledger.list(all, limit: 10).items.map(\.id) == [speedUp.id, original.id])
        all.statuses = [.failed]
        #expect(try await test.ledger.list(all, limit: 10).items.map(\.id) == [original.id])
    }

    @Test func anOriginalThatConfirmsEndsItsSpeedUpAsReplacedByIt() async throws {
        let test = try await TestLedger()
        let (original, speedUp) = try pair()
        try await test.ledger.record([original, speedUp])
        #expect(try await test.ledger.updateStatus(original.id, to: .confirmed(block: 99)).changed)
        let lost = try #require(try await test.ledger.transaction(id: speedUp.id))
        #expect(lost.status == .failed && lost.replacedBy == Fixture.evmHash(1))
        #expect(try await test.ledger.list(HistoryFilter(vault: "vault-1"), limit: 10).items.map(\.id) == [original.id])

        // A later receipt for the speed-up too (a contradiction the chain cannot make) is kept
        // as said, and settling does not overwrite the original's proven confirmation.
        try await test.ledger.updateStatus(speedUp.id, to: .confirmed(block: 100))
        #expect(try await test.ledger.transaction(id: original.id)?.status == .confirmed)
        #expect(try await test.ledger.transaction(id: original.id)?.replacedBy == nil)
    }

    @Test func aLinkRecordedAfterTheConfirmationSettlesToo() async throws {
        let test = try await TestLedger()
        let (original, speedUp) = try pair()
        try await test.ledger.record(original)
        try await test.ledger.updateStatus(original.id, to: .confirmed())
        try await test.ledger.record(speedUp)
        #expect(try await test.ledger.transaction(id: speedUp.id)?.replacedBy == Fixture.evmHash(1))
    }

    @Test func devicesThatEachHoldOneOfThePairSettleItOnEveryDevice() async throws {
        let (phone, laptop) = (try await TestLedger(), try await TestLedger())
        let (original, speedUp) = try pair()
        try await phone.ledger.record(original)
        try await laptop.ledger.record(speedUp)
        try await laptop.ledger.updateStatus(speedUp.id, to: .confirmed(block: 100))

        // The phone learns of the confirmed speed-up by a bundle and settles its original.
        let key = BundleSecret.syncKey(.generate())
        let fromLaptop = try await laptop.ledger.exportBundle(vault: "vault-1", secret: key, scope: .full)
        _ = try await phone.ledger.importBundle(fromLaptop, secret: key)
        #expect(try await phone.ledger.transaction(id: original.id)?.replacedBy == Fixture.evmHash(2))

        // And the laptop learns the settled original back.
        _ = try await laptop.ledger.importBundle(
            try await phone.ledger.exportBundle(vault: "vault-1", secret: key, scope: .full),
            secret: key
        )
        for device in [phone, laptop] {
            #expect(try await device.ledger.transaction(id: original.id)?.status == .failed)
            #expect(try await device.ledger.transaction(id: speedUp.id)?.status == .confirmed)
            #expect(
                try await device.ledger.list(HistoryFilter(vault: "vault-1"), limit: 10).items.map(\.id) == [speedUp.id]
            )
        }
        #expect(try await phone.ledger.state(original.id) == laptop.ledger.state(original.id))
    }

    @Test func aProvenOutcomeIsNeverOverwrittenBySettling() async throws {
        let test = try await TestLedger()
        let (original, speedUp) = try pair()
        try await test.ledger.record([original, speedUp])
        try await test.ledger.updateStatus(original.id, to: .failed(reason: "reverted", block: 98))
        try await test.ledger.updateStatus(speedUp.id, to: .confirmed(block: 100))
        let reverted = try #require(try await test.ledger.transaction(id: original.id))
        #expect(reverted.failureReason == "reverted" && reverted.replacedBy == nil && reverted.blockNumber == 98)
    }

    @Test func replacedByIsAHashOfTheRecordsChain() async throws {
        #expect(
            throws: LedgerError.invalidInput(
                field: "replacedBy",
                reason: "only a proven failure is replaced by another transaction"
            )
        ) {
            try StatusUpdate(.confirmed, replacedBy: Fixture.evmHash(2))
        }
        let test = try await TestLedger()
        let (original, _) = try pair()
        try await test.ledger.record(original)
        await #expect(throws: LedgerError.self) {
            try await test.ledger.updateStatus(original.id, to: .failed(replacedBy: "not a hash"))
        }
        let result = try await test.ledger.updateStatus(
            original.id,
            to: .failed(replacedBy: Fixture.evmHash(2).uppercased().replacingOccurrences(of: "0X", with: "0x"))
        )
        #expect(result.record.replacedBy == Fixture.evmHash(2), "kept in the chain's canonical form")
    }
}
