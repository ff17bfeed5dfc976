import Foundation
import PropertyBased
import Testing

@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// A merge into a row that holds the received facts byte for byte (Specs/schema.md, "Merging a
/// record whose row holds its facts"): the row read without its facts gives the state that
/// decoding it whole gives, and the merged state written with the row's facts' bytes is the frame
/// that encoding it gives, with the same entries added to the file's tables.
struct StoredFactsMergeTests {
    private static let origin = ReplicaID(rawValue: 0x1234)

    /// A file's tables that hold a few entries already, so that numbers differ from a payload's.
    private static func fileTables() -> FrameTables {
        var tables = FrameTables()
        for text in ["send", "eth_sendTransaction", "confirmed"] { tables.texts.add(text) }
        tables.replicas = [ReplicaID(rawValue: 0x99)]
        return tables
    }

    @Test func aRowReadWithoutItsFactsAndWrittenWithTheirBytesIsTheRowDecodedAndEncoded() async throws {
        var sharing = 0
        await propertyCheck(count: 300, input: CRDTGen.recordState, CRDTGen.recordState) { generated, otherGenerated in
            // Without labels nor a newer version's fields, the received frame is kept as it came.
            var received = try generated.attaching(NewerFields())
            received.labels = nil
            // Two thirds without a newer version's fields, read without their facts.
            let other =
                otherGenerated.facts.stamp.replica.rawValue == 0
                ? otherGenerated : try otherGenerated.attaching(NewerFields())
            // The row: another replica's registers, and the received facts under its own stamp.
            var held = other
            held.facts = Register(received.facts.value, stamp: other.facts.stamp)
            var encoder = FrameEncoder(stored: Self.fileTables())
            let row = encoder.frame(held)
            var tables = Self.fileTables()
            let added = encoder.takeAddedEntries()
            for text in added.texts { tables.texts.add(text) }
            tables.replicas += added.replicas
            let timestamp = held.facts.value.timestamp.millis

            var payload = FrameEncoder(origin: Self.origin)
            var reader = FrameDecoder(version: FrameDecoder.currentVersion, origin: Self.origin)
            let read = try reader.receivedRecord(payload.frame(received), vault: "v", index: 0)
            let frame = try #require(read.frame)
            let facts = try #require(try encoder.storedFacts(of: frame))
            // A row with a newer version's fields is decoded whole.
            guard let fields = StoredFrameFields(row) else {
                #expect(!held.newerFields.isEmpty)
                return
            }
            // A row of other facts (the generated ones differ with their stamps) does not hold them.
            var otherEncoder = FrameEncoder(stored: tables)
            if let otherRow = StoredFrameFields(otherEncoder.frame(other)) {
                #expect(otherRow.holdsFacts(of: facts) == (other.facts.value == received.facts.value))
            }
            guard fields.holdsFacts(of: facts) else {
                Issue.record("a row of the received facts does not hold them")
                return
            }
            sharing += 1

            var whole = FrameDecoder(stored: tables, timestamp: timestamp)
            var withoutFacts = FrameDecoder(stored: tables, timestamp: timestamp)
            let local = try whole.record(row, vault: "v", index: 0)
            let shared = try withoutFacts.record(fields.withoutFacts, facts: read.state.facts.value)
            #expect(shared.isIdentical(to: local))

            let merged = shared.joined(with: read.state)
            var encoding = encoder
            var keeping = encoder
            #expect(keeping.frame(merged, keepingFactsOf: fields) == encoding.frame(merged))
            let (kept, encoded) = (keeping.takeAddedEntries(), encoding.takeAddedEntries())
            #expect(kept.texts == encoded.texts && kept.replicas == encoded.replicas)
        }
        // A fifth of the generated rows keep a newer version's fields.
        #expect(sharing > 150)
    }

    @Test func aRowWithOneFactMoreOrLessDoesNotHoldTheFacts() throws {
        func state(memo: String?) throws -> RecordState {
            let facts = try TransactionFacts(
                vaultId: "v",
                chain: Fixture.ethereum,
                timestamp: Fixture.start,
                txHash: Fixture.evmHash(1),
                details: .send(
                    try SendDetails(
                        toAddress: Fixture.evmAddress(1),
                        amount: try DecimalAmount("1"),
                        token: try Token(symbol: "ETH"),
                        memo: memo
                    )
                )
            )
            return RecordState(
                facts: Register(facts, stamp: Stamp(time: 1 << 40, replica: Self.origin)),
                status: StatusRegister(),
                lastCheckedAt: nil,
                note: nil,
                labels: nil,
                hidden: nil
            )
        }
        var encoder = FrameEncoder(stored: Self.fileTables())
        let (plain, noted) = (try state(memo: nil), try state(memo: "for July"))
        let rows = try [plain, noted].map { try #require(StoredFrameFields(encoder.frame($0))) }
        var factsOf: [StoredFrameFields] = []
        for state in [plain, noted] {
            var payload = FrameEncoder(origin: Self.origin)
            var reader = FrameDecoder(version: FrameDecoder.currentVersion, origin: Self.origin)
            let frame = try #require(try reader.receivedRecord(payload.frame(state), vault: "v", index: 0).frame)
            factsOf.append(try #require(try encoder.storedFacts(of: frame)))
        }
        #expect(rows[0].holdsFacts(of: factsOf[0]) && rows[1].holdsFacts(of: factsOf[1]))
        #expect(!rows[0].holdsFacts(of: factsOf[1]) && !rows[1].holdsFacts(of: factsOf[0]))
    }

    @Test func factsThatNeedAnEntryTheTablesLackAreNotComparedAndAddNone() throws {
        let state = RecordState(recording: try Fixture.swap(), stamp: Stamp(time: 1 << 40, replica: Self.origin))
        var payload = FrameEncoder(origin: Self.origin)
        var reader = FrameDecoder(version: FrameDecoder.currentVersion, origin: Self.origin)
        let frame = try #require(
            try reader.receivedRecord(payload.frame(state), vault: state.facts.value.vaultId, index: 0).frame
        )
        var encoder = FrameEncoder(stored: Self.fileTables())
        #expect(try encoder.storedFacts(of: frame) == nil)
        let added = encoder.takeAddedEntries()
        #expect(added.texts.isEmpty && added.replicas.isEmpty)
        // Once the tables hold them, the facts are the ones its stored frame holds.
        let stored = try #require(StoredFrameFields(encoder.frame(state)))
        #expect(try #require(try encoder.storedFacts(of: frame)).holdsFacts(of: stored))
        var fresh = FrameEncoder(stored: Self.fileTables())
        #expect(try encoder.frame(storing: frame) == fresh.frame(state))
    }
}
