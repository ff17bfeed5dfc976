import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

/// A ledger file's tables of repeated texts and replicas (Specs/schema.md, `frame_text` and
/// `frame_replica`): a stored frame refers to them instead of writing a chain, a token or a
/// sender out, the tables follow the transactions that add to them, and a full table leaves
/// texts written out.
struct StoredFrameTablesTests {
    private struct StoredRow: Sendable {
        let frame: [UInt8]
        let texts: [String]
    }

    private func send(_ n: Int, symbol: String) throws -> TransactionRecord {
        let details = try SendDetails(
            toAddress: Fixture.evmAddress(0xBEEF),
            amount: try DecimalAmount("1"),
            token: try Token(symbol: symbol, contract: nil, decimals: 6)
        )
        let facts = try TransactionFacts(
            vaultId: "vault-1",
            chain: Fixture.ethereum,
            timestamp: Fixture.start.addingTimeInterval(Double(n)),
            txHash: Fixture.evmHash(n),
            fromAddress: Fixture.evmAddress(0xCAFE),
            details: .send(details)
        )
        return try TransactionRecord(facts: facts)
    }

    /// The stored frame of record `id`, and the file's table of texts.
    private func stored(_ id: TransactionID, in ledger: Ledger) async throws -> StoredRow {
        try await ledger.database.pool.read { db in
            let frame = try Data.fetchOne(db, sql: "SELECT state FROM record WHERE id = ?", arguments: [Data(id.bytes)])
            return StoredRow(
                frame: Array(frame ?? Data()),
                texts: try String.fetchAll(db, sql: "SELECT value FROM frame_text ORDER BY num")
            )
        }
    }

    /// The field of a stored frame as the frame holds it: a text written out, or a reference.
    private func raw(_ field: RecordField, of frame: [UInt8]) throws -> FieldValue? {
        var decoder = FrameDecoder.storedUnresolved()
        return try decoder.fields(frame, vault: "", index: 0)[field]
    }

    @Test func repeatedTextsAreStoredOnceAndReferredTo() async throws {
        let test = try await TestLedger()
        let records = try (0..<20).map { try send($0, symbol: $0 % 2 == 0 ? "USDC" : "DAI") }
        _ = try await test.ledger.record(records)
        for (n, record) in records.enumerated() {
            let row = try await stored(record.id, in: test.ledger)
            let expected: [RecordField: String] = [
                .kind: "send", .chain: "ethereum", .fromAddress: Fixture.evmAddress(0xCAFE),
                .tokenSymbol: n % 2 == 0 ? "USDC" : "DAI",
            ]
            for (field, text) in expected {
                guard case let .integer(reference)? = try raw(field, of: row.frame) else {
                    Issue.record("\(field.name) is written out in the stored frame")
                    continue
                }
                #expect(row.texts[Int(reference) - 1] == text)
            }
            #expect(try await test.ledger.transaction(id: record.id) == record)
        }
        // send, ethereum, the sender, USDC and DAI: each once.
        let texts = try await stored(records[0].id, in: test.ledger).texts
        #expect(texts.count == 5 && Set(texts).count == 5, "\(texts)")
        #expect(try await test.ledger.list(HistoryFilter(tokens: ["dai"]), limit: 100).items.count == 10)
    }

    /// A merge compares a received state with its stored row before decoding the row: the
    /// frame it would be stored as is the row's, byte for byte, when nothing changed; a state
    /// that needs an entry the tables lack is not stored anywhere, and asking adds nothing.
    @Test func aStateIsComparedWithItsStoredFrameWithoutAddingEntries() async throws {
        let test = try await TestLedger()
        let record = try send(1, symbol: "USDC")
        _ = try await test.ledger.record(record)
        let row = try await stored(record.id, in: test.ledger)
        let tables = try await test.ledger.database.read { try $0.frameTables() }
        let state = try #require(try await test.ledger.database.read { try $0.fetch(id: record.id) })
        var encoder = FrameEncoder(stored: tables)
        #expect(encoder.storedFrameIfHeld(state) == row.frame)

        var noted = state
        let later = Stamp(time: state.facts.stamp.time + 1, replica: ReplicaID(rawValue: 9))
        noted.note = Register("a new note", stamp: later)
        #expect(encoder.storedFrameIfHeld(noted) == nil)  // replica 9 is not in the table
        let other = try send(2, symbol: "EURC")
        let unknown = RecordState(recording: other, stamp: state.facts.stamp)
        #expect(encoder.storedFrameIfHeld(unknown) == nil)  // nor is EURC
        #expect(encoder.takeAddedEntries().texts.isEmpty && encoder.takeAddedEntries().replicas.isEmpty)
        #expect(encoder.frame(unknown) != [])
        #expect(encoder.takeAddedEntries().texts == ["EURC"])
    }

    /// A stored frame leaves `timestamp_ms` to its row's `time`, and one that carries it is
    /// refused.
    @Test func theTimestampIsTheRowsTimeNotTheFrames() async throws {
        let test = try await TestLedger()
        let record = try send(1, symbol: "USDC")
        _ = try await test.ledger.record(record)
        let row = try await stored(record.id, in: test.ledger)
        #expect(try raw(.timestampMs, of: row.frame) == nil)
        #expect(try await test.ledger.transaction(id: record.id)?.timestamp == record.timestamp)

        // Field 3 (`timestamp_ms`, wire type 0) as a frame's first field.
        var decoder = FrameDecoder(stored: FrameTables(), timestamp: 5)
        #expect(throws: BundleError.malformedContent("record 0: a stored frame has no timestamp_ms (its row's time)")) {
            try decoder.fields([3 << 3, 0x02], vault: "v", index: 0)
        }
    }

    /// A transaction that added entries and then failed leaves no entry behind, so the next
    /// one numbers its own entries from the same place and reads them back as they are.
    @Test func aRolledBackWriteLeavesTheTablesAsTheyWere() async throws {
        let test = try await TestLedger()
        _ = try await test.ledger.record(try send(0, symbol: "USDC"))
        let abandoned = try send(1, symbol: "ABANDONED")
        await #expect(throws: CancellationError.self) {
            try await test.ledger.write { transaction in
                _ = try transaction.record(abandoned)
                throw CancellationError()
            }
        }
        let kept = try send(2, symbol: "KEPT")
        _ = try await test.ledger.record(kept)
        let row = try await stored(kept.id, in: test.ledger)
        #expect(!row.texts.contains("ABANDONED"))
        #expect(row.texts.last == "KEPT")
        #expect(try await test.ledger.transaction(id: kept.id) == kept)
        #expect(try await test.ledger.transaction(id: abandoned.id) == nil)
    }

    /// A damaged table (an entry missing, or out of order) makes reads `unreadableDatabase`, for a
    /// ledger that opens the file afresh, and changes nothing.
    @Test func aDamagedTableIsAnUnreadableDatabase() async throws {
        for damage in [
            "DELETE FROM frame_text WHERE num = (SELECT MAX(num) FROM frame_text)",
            "UPDATE frame_text SET num = num + 100 WHERE num = 2",
            "UPDATE frame_replica SET num = 5",
        ] {
            let test = try await TestLedger()
            let record = try send(0, symbol: "USDC")
            _ = try await test.ledger.record(record)
            try await test.ledger.database.pool.write { db in try db.execute(sql: damage) }
            let before = try await test.ledger.database.pool.read { db in
                try Data.fetchAll(db, sql: "SELECT state FROM record") + [
                    Data(try String.fetchAll(db, sql: "SELECT value FROM frame_text").joined().utf8)
                ]
            }
            let reopened = try await Ledger.open(path: test.ledger.path, options: .init(logger: .quiet))
            await #expect(throws: LedgerError.self, "\(damage)") { try await reopened.transaction(id: record.id) }
            do {
                _ = try await reopened.transaction(id: record.id)
            } catch let error as LedgerError {
                guard error.code == .unreadableDatabase else {
                    Issue.record("\(damage): \(error)")
                    continue
                }
            }
            await #expect(throws: LedgerError.self) { try await reopened.record(try send(1, symbol: "DAI")) }
            let after = try await test.ledger.database.pool.read { db in
                try Data.fetchAll(db, sql: "SELECT state FROM record") + [
                    Data(try String.fetchAll(db, sql: "SELECT value FROM frame_text").joined().utf8)
                ]
            }
            #expect(after == before, "\(damage)")
        }
    }

    /// Two ledgers on one file (two processes): each reads the entries the other added, and
    /// one's abandoned entries never stand for the other's under the same number.
    @Test func twoLedgersOnOneFileReadEachOthersEntries() async throws {
        let test = try await TestLedger()
        let other = try await Ledger.open(path: test.ledger.path, options: .init(logger: .quiet))
        _ = try await test.ledger.record(try send(0, symbol: "USDC"))
        let fromOther = try send(1, symbol: "DAI")
        _ = try await other.record(fromOther)
        #expect(try await test.ledger.transaction(id: fromOther.id) == fromOther)
        await #expect(throws: CancellationError.self) {
            try await test.ledger.write { transaction in
                _ = try transaction.record(try send(2, symbol: "ABANDONED"))
                throw CancellationError()
            }
        }
        let kept = try send(3, symbol: "KEPT")
        _ = try await other.record(kept)
        #expect(try await test.ledger.transaction(id: kept.id) == kept)
        #expect(try await test.ledger.list(HistoryFilter(tokens: ["kept"])).items == [kept])
    }

    /// Once the table holds `FrameTables.maxTexts` entries, a new text is written out in the
    /// frame; it reads back, and filters find it.
    @Test func aFullTableLeavesNewTextsWrittenOut() async throws {
        let test = try await TestLedger()
        // Each record brings its own symbol; send, ethereum and the sender are the other three.
        let filling = try (0..<(FrameTables.maxTexts - 3)).map { try send($0, symbol: "T\($0)") }
        for start in stride(from: 0, to: filling.count, by: 1000) {
            _ = try await test.ledger.record(Array(filling[start..<min(start + 1000, filling.count)]))
        }
        let late = try send(FrameTables.maxTexts, symbol: "LATE")
        _ = try await test.ledger.record(late)
        let row = try await stored(late.id, in: test.ledger)
        #expect(row.texts.count == FrameTables.maxTexts)
        #expect(try raw(.tokenSymbol, of: row.frame) == .text("LATE"))
        #expect(try raw(.chain, of: row.frame).map { if case .integer = $0 { true } else { false } } == true)
        #expect(try await test.ledger.transaction(id: late.id) == late)
        #expect(try await test.ledger.list(HistoryFilter(tokens: ["late"]), limit: 10).items == [late])
        #expect(try await test.ledger.list(HistoryFilter(tokens: ["t7"]), limit: 10).items.count == 1)
    }
}
