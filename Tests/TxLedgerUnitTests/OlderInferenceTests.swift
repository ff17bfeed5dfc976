import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Versions before status evidence wrote a drop they inferred from a used nonce as a plain
/// failure; read from their files (schema v7) and bundles (formats 1–3), it is an inference,
/// which a proof overturns (Specs/crdt.md, "Older versions' inferences").
struct OlderInferenceTests {
    private let reason = "dropped or replaced: nonce 7 was used by another transaction"

    private func failed(_ reason: String, block: UInt64? = nil) throws -> RecordState {
        RecordState(
            recording: try Fixture.send(status: .failed(reason: reason, block: block)),
            stamp: Stamp(millis: 1_751_371_200_000, replica: ReplicaID(rawValue: 3))
        )
    }

    @Test func onlyAnOlderVersionsNonceInferenceBecomesOne() throws {
        let older = try failed(reason)
        let converted = older.withOlderInference
        #expect(converted.status.terminal == nil && converted.status.inferred?.value == reason)
        #expect(converted.status.inferred?.stamp == older.status.terminal?.stamp)
        #expect(converted.record.status == .failed && converted.record.statusEvidence == .inference)
        for kept in [try failed("reverted"), try failed(reason, block: 9), try failed("Dropped or replaced: nonce 7")] {
            #expect(kept.withOlderInference == kept)
        }
    }

    /// `PayloadEncodingTests.formatThreeGolden`'s first two records, the second patched by hand
    /// (its `terminal_status` `confirmed` made `failed`, `confirmed_at_ms` dropped, a
    /// `failure_reason` added as the next shared text) into what a format 3 writer wrote for a
    /// drop it inferred; the swap after them left out.
    static let formatThreeInferredDrop =
        "01760000000000000001000101000000000000000a010101000000000000000205000000000000000b018680c03e0200"
        + "000000000000036801011073656e64020220657468657265756d0380d8ddddf865048101000000000000000000000000"
        + "00000000000000000000000000000000000000010c5100000000000000000000000000000000000000010d04310e030c"
        + "45544825000026030000000000000004a2010101020203a0f4deddf86504810100000000000000000000000000000000"
        + "000000000000000000000000000000020c5100000000000000000000000000000000000000010d04310e032500012603"
        + "2904186661696c65642b05f00164726f70706564206f72207265706c616365643a206e6f6e6365203720776173207573"
        + "656420627920616e6f74686572207472616e73616374696f6e2ce0d403022d022ef0a204"

    @Test func aFormatThreeBundlesInferredDropIsAnInference() async throws {
        let folder = try TemporaryDirectory()
        let secret = BundleSecret.syncKey(.generate())
        let path = try await BundleFixture.seal(
            try PayloadEncodingTests.bytes(Self.formatThreeInferredDrop),
            with: secret,
            in: folder,
            version: 3
        )
        let records = try await BundleVector.decode(path, secret: secret).records
        #expect(records.count == 2)
        let dropped = try #require(records.last)
        #expect(dropped.record.status == .failed && dropped.record.statusEvidence == .inference)
        #expect(dropped.record.failureReason == reason)
        #expect(dropped.stamps["inferred"] != nil && dropped.stamps["terminal"] == nil)
    }

    /// A v7 file whose send an older version failed "dropped or replaced": opened by this
    /// version, the failure is an inference, and the receipt a status check reads overturns it.
    @Test func aV7FilesInferredDropIsOverturnedByAReceipt() async throws {
        let copy = try TemporaryDirectory()
        let path = copy.path("ledger.sqlite")
        try FileManager.default.copyItem(
            atPath: LedgerFileFixtureTests.folder.appendingPathComponent("ledger.sqlite").path,
            toPath: path
        )
        let id = "fbd91de6971447047cf3fa23d36cc398"
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(
                sql: """
                    UPDATE record SET terminal_status = 'failed', failure_reason = ?,
                        terminal_time = facts_time + 65536, terminal_replica = facts_replica WHERE id = ?
                    """,
                arguments: [reason, id]
            )
        }
        try queue.close()

        let ledger = try await Ledger.open(path: path, options: .init(logger: .quiet))
        let transactionID = try #require(TransactionID(id))
        let record = try #require(try await ledger.transaction(id: transactionID))
        #expect(record.status == .failed && record.statusEvidence == .inference && record.failureReason == reason)
        let overturned = try await ledger.updateStatus(record.id, to: .confirmed(block: 100))
        #expect(overturned.changed && overturned.record.status == .confirmed)
    }
}
