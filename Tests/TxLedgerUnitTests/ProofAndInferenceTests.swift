import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Proof beats inference (Specs/crdt.md): a failure inferred on one device, even later, never
/// hides a receipt seen on another, and a receipt seen after an inference overturns it on
/// every device; what the receipt said (block, fee paid) travels with it.
struct ProofAndInferenceTests {
    private let dropped = StatusUpdate.inferredFailure(
        reason: "dropped or replaced: nonce 7 was used by another transaction"
    )

    @Test func aLaterInferenceOnOneDeviceDoesNotHideAnEarlierProofOnAnother() async throws {
        let (phone, laptop) = (try await TestLedger(), try await TestLedger())
        let send = try Fixture.send(status: .pending)
        try await phone.ledger.record(send)
        try await phone.ledger.sync(to: laptop.ledger)

        // The laptop reads the receipt first; the phone, later and behind a lagging node, infers a drop.
        let receipt = StatusUpdate.confirmed(
            at: Fixture.start,
            block: 21_000_123,
            feePaid: try DecimalAmount("0.00042")
        )
        #expect(try await laptop.ledger.updateStatus(send.id, to: receipt).changed)
        phone.clock.advance(by: 60)
        #expect(try await phone.ledger.updateStatus(send.id, to: dropped).changed)
        #expect(try await phone.ledger.transaction(id: send.id)?.statusEvidence == .inference)

        // Through bundles, both ways.
        let key = BundleSecret.syncKey(.generate())
        let fromLaptop = try await laptop.ledger.exportBundle(vault: "vault-1", secret: key, scope: .full)
        let fromPhone = try await phone.ledger.exportBundle(vault: "vault-1", secret: key, scope: .full)
        _ = try await phone.ledger.importBundle(fromLaptop, secret: key)
        _ = try await laptop.ledger.importBundle(fromPhone, secret: key)
        for device in [phone, laptop] {
            let record = try #require(try await device.ledger.transaction(id: send.id))
            #expect(record.status == .confirmed && record.statusEvidence == .proof)
            #expect(record.blockNumber == 21_000_123 && record.feePaid?.string == "0.00042")
            #expect(record.confirmedAt == Fixture.start && record.failureReason == nil)
        }
        #expect(try await phone.ledger.state(send.id) == laptop.ledger.state(send.id))

        // And an inference written now changes nothing, and says why.
        let again = try await phone.ledger.updateStatus(send.id, to: dropped)
        #expect(again.refusal == .proven(.confirmed))
    }

    @Test func anInferredFailureIsStoredFoundAndOverturnedByAReceipt() async throws {
        let test = try await TestLedger()
        let send = try Fixture.send(status: .pending)
        try await test.ledger.record(send)
        #expect(try await test.ledger.updateStatus(send.id, to: dropped).changed)

        let failed = try await test.ledger.list(HistoryFilter(vault: "vault-1", statuses: [.failed]), limit: 10)
        #expect(failed.items.map(\.id) == [send.id])
        #expect(failed.items.first?.failureReason == "dropped or replaced: nonce 7 was used by another transaction")
        let json = String(decoding: try JSONEncoder().encode(failed.items[0]), as: UTF8.self)
        #expect(json.contains("\"statusEvidence\":\"inference\""))

        // A reopened file reads the inference back as it was written.
        let reopened = try await test.reopened()
        #expect(try await reopened.transaction(id: send.id)?.statusEvidence == .inference)

        let receipt = StatusUpdate.failed(reason: "reverted", block: 9, feePaid: try DecimalAmount("0.0001"))
        let overturned = try await reopened.updateStatus(send.id, to: receipt)
        #expect(overturned.changed && overturned.record.statusEvidence == .proof)
        #expect(overturned.record.failureReason == "reverted" && overturned.record.feePaid?.string == "0.0001")
        #expect(
            try await reopened.list(HistoryFilter(vault: "vault-1", statuses: [.failed]), limit: 10).items.count == 1
        )
    }

    @Test func aRecordsJSONCarriesItsEvidenceBlockAndFee() throws {
        let json = """
            {"vaultId": "v", "kind": "send", "chain": "ethereum", "timestamp": "2025-07-01T12:00:00Z",
             "txHash": "\(Fixture.evmHash(1))", "toAddress": "\(Fixture.evmAddress(2))", "amount": "1",
             "token": {"symbol": "ETH"}, "status": "confirmed", "blockNumber": 21000123, "feePaid": "0.00042"}
            """
        let record = try JSONDecoder().decode(TransactionRecord.self, from: Data(json.utf8))
        #expect(record.blockNumber == 21_000_123 && record.feePaid?.string == "0.00042")
        #expect(record.statusEvidence == .proof)
        let back = try JSONDecoder().decode(TransactionRecord.self, from: try JSONEncoder().encode(record))
        #expect(back == record)

        let inferred = json.replacingOccurrences(of: "\"confirmed\"", with: "\"failed\"")
            .replacingOccurrences(
                of: "\"blockNumber\": 21000123, \"feePaid\": \"0.00042\"",
                with: "\"failureReason\": \"dropped\", \"statusEvidence\": \"inference\""
            )
        #expect(
            try JSONDecoder().decode(TransactionRecord.self, from: Data(inferred.utf8)).statusEvidence == .inference
        )
        let feeOnInference = inferred.replacingOccurrences(
            of: "\"statusEvidence\"",
            with: "\"feePaid\": \"1\", \"statusEvidence\""
        )
        #expect(
            throws: LedgerError.invalidInput(field: "feePaid", reason: "only a proven confirmation or failure has one")
        ) {
            try JSONDecoder().decode(TransactionRecord.self, from: Data(feeOnInference.utf8))
        }
    }
}
