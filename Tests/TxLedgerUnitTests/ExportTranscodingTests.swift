import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// An export writes each stored frame into the bundle without decoding its record
/// (Specs/schema.md, "Exporting stored frames"): the bytes must be those that encoding the
/// record gives, whatever the record holds, and a stored frame that is not well formed stops
/// the export with the file's error, leaving no bundle.
struct ExportTranscodingTests {
    /// The payload of `vault`'s full change set, made both ways: by encoding each decoded
    /// record, and by transcoding each stored frame.
    static func payloads(of ledger: Ledger, vault: String) async throws -> (encoded: [UInt8], transcoded: [UInt8]) {
        try await ledger.read { store in
            let header = try store.changeSetHeader(vault, since: 0)
            var encoded = PayloadEncoder()
            encoded.encode(header)
            try store.forEachStored(vault: vault, changedAfter: 0) { state, _ in encoded.encode(state) }
            var transcoded = PayloadEncoder()
            transcoded.encode(header)
            try store.forEachStoredFrame(vault: vault, changedAfter: 0) { frame, time, tables in
                try transcoded.encode(stored: frame, timestamp: time, tables: tables)
            }
            return (encoded.bytes, transcoded.bytes)
        }
    }

    /// Expects both payloads of vault-1 to be the same bytes, saying where they first differ.
    static func expectSamePayloads(of ledger: Ledger) async throws {
        let (encoded, transcoded) = try await payloads(of: ledger, vault: "vault-1")
        let same = transcoded == encoded
        let common = min(encoded.count, transcoded.count)
        let difference = (0..<common).first { encoded[$0] != transcoded[$0] } ?? common
        #expect(same, "the payloads (\(encoded.count) and \(transcoded.count) bytes) differ from byte \(difference)")
    }

    /// A change set lists its records in history order (bundle-format.md, "Payload"):
    /// timestamp, then id, whatever order they were written in; a delta too.
    @Test func aChangeSetIsInHistoryOrder() async throws {
        let test = try await TestLedger()
        let times = [5, 1, 3, 1, 4, 1, 2, 5].map { Fixture.start.addingTimeInterval(TimeInterval($0)) }
        _ = try await test.ledger.record(try times.enumerated().map { try Fixture.minimalSend(hash: $0, at: $1) })
        func isInHistoryOrder(_ records: [RecordState]) -> Bool {
            zip(records, records.dropFirst()).allSatisfy {
                ($0.facts.value.timestamp.millis, $0.id) < ($1.facts.value.timestamp.millis, $1.id)
            }
        }
        let full = try await test.ledger.changes(vault: "vault-1")
        #expect(full.records.count == times.count && isInHistoryOrder(full.records))
        try await Self.expectSamePayloads(of: test.ledger)
        test.clock.advance(by: 1)
        _ = try await test.ledger.record(try (20..<26).map { try Fixture.minimalSend(hash: $0, at: times[$0 % 8]) })
        let delta = try await test.ledger.database.read { store in
            try store.fetchStored(vault: "vault-1", changedAfter: full.header.through)
        }
        #expect(delta.count == 6 && isInHistoryOrder(delta))
    }

    @Test func aTranscodedFrameIsTheRecordsEncoding() async throws {
        let test = try await TestLedger()
        let ledger = test.ledger
        // Every kind, every field, statuses proven and inferred, annotations, and a send with
        // only its required fields.
        _ = try await ledger.record([
            try Fixture.send(hash: 3, status: .failed(reason: "reverted: out of gas")),
            try Fixture.swap(),
            try Fixture.signature(),
            try Fixture.minimalSend(hash: 5),
            try Fixture.send(hash: 9, hidden: true),
        ])
        let inferred = try Fixture.minimalSend(hash: 6)
        _ = try await ledger.record(inferred)
        _ = try await ledger.updateStatus(inferred.id, to: .inferredFailure(reason: "dropped: nonce 4 used"))
        // A newer version's fields of every wire type, and stamps of other replicas.
        let newer = try NewerFieldsTests.newerStates()
        _ = try await ledger.merge(
            ChangeSet(
                header: ChangeSetHeader(
                    vaultId: "vault-1",
                    origin: NewerFieldsTests.newerDevice,
                    since: 0,
                    through: 1,
                    knowledge: [:],
                    lineage: [Epoch(id: EpochID(rawValue: 0x0C), firstSeq: 1)],
                    clearedThrough: nil
                ),
                records: newer
            )
        )
        let other = try await TestLedger()
        _ = try await other.ledger.record(try Fixture.minimalSend(hash: 7))
        _ = try await ledger.merge(ledgerAt: other.ledger.path)

        try await Self.expectSamePayloads(of: ledger)
        // The bundle reads back as the ledger holds it.
        let stored = try await ledger.changes(vault: "vault-1").records.sorted { $0.id < $1.id }
        #expect(stored.count == 8)
        #expect(stored.contains { !$0.fields.newer.fields.isEmpty })
        let secret = BundleSecret.syncKey(.generate())
        let bundle = test.directory.path("full.txb")
        try await ledger.exportBundle(vault: "vault-1", to: bundle, secret: secret, scope: .full)
        #expect(try await BundleFixture.decode(bundle, secret: secret).records == stored)
    }

    /// The full text table: stored frames write new texts out, and the payload's table takes them.
    @Test func textsWrittenOutOfAFullTableTranscodeToo() async throws {
        let test = try await TestLedger()
        _ = try await test.ledger.record(try Fixture.minimalSend(hash: 1))
        try await test.ledger.database.pool.write { db in
            // Fill the table with texts no record uses, then record sends whose chain, sender
            // and token are new: each is written out in the stored frame.
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM frame_text") ?? 0
            for num in (count + 1)...FrameTables.maxTexts {
                try db.execute(
                    sql: "INSERT INTO frame_text (num, value) VALUES (?, ?)",
                    arguments: [num, "filler \(num)"]
                )
            }
            try db.execute(sql: "UPDATE ledger_meta SET frame_texts = ?", arguments: [FrameTables.maxTexts])
        }
        let reopened = try await test.reopened()
        let late = try (0..<3).map { n in
            try TransactionRecord(
                facts: try TransactionFacts(
                    vaultId: "vault-1",
                    chain: try Chain(parsing: "polygon"),
                    timestamp: Fixture.start,
                    txHash: Fixture.evmHash(0x5000 + n),
                    fromAddress: Fixture.evmAddress(0xD00D),
                    details: .send(
                        try SendDetails(
                            toAddress: Fixture.evmAddress(0xBEEF),
                            amount: try DecimalAmount("2"),
                            token: try Token(symbol: "POL", contract: nil, decimals: 18)
                        )
                    )
                )
            )
        }
        _ = try await reopened.record(late)
        let frame = try await reopened.database.pool.read { db in
            try Data.fetchOne(db, sql: "SELECT state FROM record WHERE id = ?", arguments: [Data(late[0].id.bytes)])
        }
        var raw = FrameDecoder.storedUnresolved()
        #expect(try raw.fields(Array(frame ?? Data()), vault: "", index: 0)[.chain] == .text("polygon"))
        try await Self.expectSamePayloads(of: reopened)
    }

    /// A stored frame that is not well formed, each way a transcoder could miss: the export
    /// fails with the file's error and writes no bundle.
    @Test(
        arguments: [
            // Field 1 (kind) is a shared text: tag 0x0B, then entry 1 of the file's table.
            ("a reference beyond the table", [0x0B, 0x7F]),
            ("a timestamp in the frame", [0x0B, 0x01, 0x10, 0x02]),  // then field 3
            ("the wrong wire type", [0x0A, 0x00]),  // field 1 as a text
            ("a text past its end", [0x0B, 0x01, 0x1A, 0x40]),  // field 4 (tx_hash) of 16 bytes, none there
            ("a replica beyond the table", [0x0B, 0x01, 0xAC, 0x02, 0x07]),  // field 38 (facts replica) 7
        ] as [(String, [UInt8])]
    )
    func aMalformedStoredFrameStopsTheExport(_ damage: String, frame: [UInt8]) async throws {
        let test = try await TestLedger()
        let record = try Fixture.minimalSend(hash: 1)
        _ = try await test.ledger.record([record, try Fixture.minimalSend(hash: 2)])
        try await test.ledger.database.pool.write { db in
            try db.execute(
                sql: "UPDATE record SET state = ? WHERE id = ?",
                arguments: [Data(frame), Data(record.id.bytes)]
            )
        }
        let bundle = test.directory.path("out.txb")
        do {
            try await test.ledger.exportBundle(
                vault: "vault-1",
                to: bundle,
                secret: .syncKey(.generate()),
                scope: .full
            )
            Issue.record("\(damage): the export succeeded")
        } catch let error as LedgerError where error.code == .unreadableDatabase {
            let reason = error.reason ?? ""
            #expect(reason.contains(record.id.rawValue) && reason.contains("malformed"), "\(damage): \(reason)")
        }
        #expect(!FileManager.default.fileExists(atPath: bundle), "\(damage)")
    }
}
