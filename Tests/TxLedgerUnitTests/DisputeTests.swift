import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStatus
@testable import TxLedgerTestSupport

/// Outcomes the chain settles (Specs/crdt.md, "Outcomes the chain settles"): devices' words
/// that disagree are a dispute every device shows, the next status check asks the chain, and
/// the chain's answer outranks every word on every device, whatever the clocks.
struct DisputeTests {
    static let year: TimeInterval = 365 * 86_400

    /// An endpoint that answers the receipt of `record`: mined, succeeded.
    static func receiptServer(_ record: TransactionRecord) async throws -> ChainServer {
        let hash = record.txHash!
        return try await ChainServer.start { request in
            switch request.rpcMethod {
            case "eth_getTransactionReceipt": .rpcResult(ChainResponses.receipt(hash, status: "0x1"))
            case "eth_getBlockByNumber": .rpcResult(ChainResponses.block)
            case "eth_blockNumber": .rpcResult("\"0x1c0\"")
            default: .rpcResult("null")
            }
        }
    }

    /// Issue #35's scenario: a device a year fast says `failed`; a device at the right time says
    /// `confirmed` a second later. Every device shows the join's outcome and the dispute; one
    /// refresh against an endpoint that answers the receipt settles it on every device.
    @Test func aFastClocksFailedAgainstALaterConfirmedIsDisputedThenSettledByTheChain() async throws {
        let record = try StatusFixture.evmSend(status: .pending)
        let laptop = try await RefreshHarness([record])
        let fast = try await TestLedger(clock: ManualClock(StatusFixture.now.addingTimeInterval(Self.year)))
        let tablet = try await TestLedger(clock: ManualClock(StatusFixture.now))
        let devices = [laptop.ledger, fast.ledger, tablet.ledger]
        func syncAll() async throws {
            for from in devices { for to in devices where to !== from { try await from.sync(to: to, full: true) } }
        }
        try await syncAll()

        try await fast.ledger.updateStatus(record.id, to: .failed(reason: "rejected by network"))
        laptop.test.clock.advance(by: 1)
        try await laptop.ledger.updateStatus(record.id, to: .confirmed(at: StatusFixture.now, block: 448))
        try await syncAll()
        for device in devices {
            let shown = try #require(try await device.transaction(id: record.id))
            #expect(shown.status == .failed, "the join's outcome: the later stamp")
            let dispute = try #require(shown.statusDispute, "every device shows the dispute")
            #expect(!dispute.settled && dispute.status == .confirmed && dispute.claimedBy == laptop.ledger.replicaID)
            #expect(HistoryText.status(of: shown) == "Error (disputed)")
        }

        // One refresh on the tablet, which has an endpoint: the disputed record is checked.
        let server = try await Self.receiptServer(record)
        defer { Task { await server.stop() } }
        let checker = RefreshHarness(existing: tablet)
        let summary = try await checker.refresher(["ethereum": try server.endpoint()]).refreshPending()
        #expect(summary.changed.map(\.record.id) == [record.id])
        try await syncAll()
        for device in devices {
            let shown = try #require(try await device.transaction(id: record.id))
            #expect(shown.status == .confirmed && shown.statusCheckedOnChain, "the chain's answer, everywhere")
            #expect(shown.statusDispute?.settled == true && shown.statusDispute?.status == .failed)
        }
        // The fast device's word no longer outranks it, whatever its stamp.
        let refused = try await fast.ledger.updateStatus(record.id, to: .failed(reason: "rejected by network"))
        #expect(refused.refusal == .checkedOnChain(.confirmed) && refused.record.status == .confirmed)
    }

    /// A forged `failed` from another device is not a dispute by itself: `refresh --verify`
    /// asks the chain about outcomes other devices said, and the correction reaches every device.
    @Test func aForgedFailedIsCorrectedEverywhereByOneVerifyAndASync() async throws {
        let record = try StatusFixture.evmSend(status: .pending)
        let laptop = try await RefreshHarness([record])
        let phone = try await TestLedger(clock: ManualClock(StatusFixture.now))
        try await laptop.ledger.sync(to: phone.ledger, full: true)
        try await phone.ledger.updateStatus(record.id, to: .failed(reason: "rejected by network: send again"))
        try await phone.ledger.sync(to: laptop.ledger)
        #expect(try await laptop.record(record.id).status == .failed)

        let server = try await Self.receiptServer(record)
        defer { Task { await server.stop() } }
        let refresher = laptop.refresher(["ethereum": try server.endpoint()])
        let plain = try await refresher.refreshPending()
        #expect(plain.results.isEmpty, "a plain refresh leaves another device's outcome alone")
        let verified = try await refresher.refreshPending(verify: true)
        #expect(verified.changed.map(\.record.id) == [record.id])
        let corrected = try await laptop.record(record.id)
        #expect(corrected.status == .confirmed && corrected.statusCheckedOnChain)
        #expect(
            corrected.statusDispute?.settled == true && corrected.statusDispute?.claimedBy == phone.ledger.replicaID
        )

        try await laptop.ledger.sync(to: phone.ledger)
        let there = try #require(try await phone.ledger.transaction(id: record.id))
        #expect(there.status == .confirmed && there.statusCheckedOnChain)
        // Verified once by the chain, it is not asked again.
        #expect(try await refresher.refreshPending(verify: true).results.isEmpty)
    }
}
