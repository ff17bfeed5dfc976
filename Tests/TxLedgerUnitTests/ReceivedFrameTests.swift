import Foundation
import PropertyBased
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// A received frame stored from its bytes (Specs/schema.md, "Storing a received frame"): for
/// every record a payload carries, the stored frame made from the received frame is the one
/// encoding the record gives, byte for byte, with the same entries added to the file's tables;
/// a frame is kept only when it is the frame a writer writes for the record it reads.
struct ReceivedFrameTests {
    private static let origin = ReplicaID(rawValue: 0x1234)
    private static let stamp = Stamp(time: 1_700_000_000_000 << 16, replica: ReplicaID(rawValue: 0x77))

    /// Records of each kind, chain family and register (the fixtures), then the generated one.
    private static func states(with generated: RecordState) throws -> [RecordState] {
        try [
            Fixture.minimalSend(hash: 7), Fixture.swap(), Fixture.swap(hash: 3, receipt: false), Fixture.signature(),
            Fixture.send(note: nil, labels: []), Fixture.send(hash: 9, status: .failed(reason: "reverted")),
            Fixture.minimalSend(hash: 8),
        ]
        .map { RecordState(recording: $0, stamp: stamp) } + [generated]
    }

    /// A file's tables that already hold entries, so that the payload's numbers are not the
    /// file's: some texts the records use, in another order, and a replica.
    private static func fileTables(texts: [String]) -> FrameTables {
        var tables = FrameTables()
        for text in texts { tables.texts.add(text) }
        tables.replicas = [ReplicaID(rawValue: 0x99), origin]
        return tables
    }

    @Test func storedFromItsBytesAsEncoded() async throws {
        var kept = 0
        await propertyCheck(count: 150, input: CRDTGen.recordState) { generated in
            let states = try Self.states(with: generated)
            for tables in [
                FrameTables(), Self.fileTables(texts: ["thorchain", "eth_sendTransaction", "USDC", "send"]),
            ] {
                var payload = FrameEncoder(origin: Self.origin)
                var decoder = FrameDecoder(version: FrameDecoder.currentVersion, origin: Self.origin)
                var fromBytes = FrameEncoder(stored: tables)
                var fromStates = FrameEncoder(stored: tables)
                for (index, state) in states.enumerated() {
                    let read = try decoder.receivedRecord(
                        payload.frame(state),
                        vault: state.facts.value.vaultId,
                        index: index
                    )
                    let (record, received) = (read.state, read.frame)
                    let expected = fromStates.frame(record)
                    if let received {
                        #expect(try fromBytes.frame(storing: received) == expected, "record \(index)")
                        kept += 1
                    } else {
                        _ = fromBytes.frame(record)
                    }
                    let (added, addedFromStates) = (fromBytes.takeAddedEntries(), fromStates.takeAddedEntries())
                    #expect(added.texts == addedFromStates.texts && added.replicas == addedFromStates.replicas)
                }
            }
        }
        // Most are kept: the generated records carry labels or newer fields half of the time.
        #expect(kept > 150 * 2 * 5)
    }

    @Test func aFileFullTableWritesTextsOut() throws {
        let full = Self.fileTables(texts: (0..<FrameTables.maxTexts).map { "entry \($0)" })
        var payload = FrameEncoder(origin: Self.origin)
        var decoder = FrameDecoder(version: FrameDecoder.currentVersion, origin: Self.origin)
        var fromBytes = FrameEncoder(stored: full)
        var fromStates = FrameEncoder(stored: full)
        for (index, state) in try Self.states(
            with: RecordState(recording: try Fixture.swap(hash: 5), stamp: Self.stamp)
        )
        .enumerated() {
            let read = try decoder.receivedRecord(payload.frame(state), vault: "vault-1", index: index)
            let (record, received) = (read.state, read.frame)
            let frame = try received.flatMap { try fromBytes.frame(storing: $0) } ?? fromBytes.frame(record)
            #expect(frame == fromStates.frame(record))
        }
        #expect(fromBytes.takeAddedEntries().texts.isEmpty)
    }

    /// A frame that a reader brings to the canonical form, or one with a newer version's field,
    /// is not kept: its record is encoded again.
    @Test func notKeptUnlessWrittenAsEncoded() throws {
        let swap = RecordState(recording: try Fixture.swap(hash: 0xABCDEF), stamp: Self.stamp)
        var written = swap.fields
        written[.explorerUrl] = nil  // as a writer leaves the default page out
        var lowercaseHash = written
        lowercaseHash[.txHash] = .text(try #require(swap.facts.value.txHash).lowercased())
        var upperCaseChain = written
        upperCaseChain[.toChain] = .text("Bitcoin")
        var newer = written
        newer.newer = NewerFields([NewerField(number: 100, value: .varint(1))])
        for (name, fields) in [("hash", lowercaseHash), ("chain", upperCaseChain), ("newer", newer)] {
            var payload = FrameEncoder(origin: Self.origin)
            var decoder = FrameDecoder(version: FrameDecoder.currentVersion, origin: Self.origin)
            let read = try decoder.receivedRecord(payload.frame(fields), vault: "vault-1", index: 0)
            #expect(read.frame == nil, "\(name)")
            #expect(read.state.id == swap.id, "\(name)")
        }
        var payload = FrameEncoder(origin: Self.origin)
        var decoder = FrameDecoder(version: FrameDecoder.currentVersion, origin: Self.origin)
        #expect(try decoder.receivedRecord(payload.frame(written), vault: "vault-1", index: 0).frame != nil)
    }

    /// A received record whose register the vault's clear watermark takes is stored as the
    /// merge leaves it, not as its frame has it.
    @Test func aRegisterTheWatermarkTakesIsNotStoredFromTheFrame() async throws {
        let test = try await TestLedger()
        let replica = ReplicaID(rawValue: 7)
        let now = test.clock.now.millis
        var received = RecordState(
            recording: try Fixture.minimalSend(hash: 2, at: test.clock.now),
            stamp: Stamp(time: now << 16, replica: replica)
        )
        received.note = Register("before the clear", stamp: Stamp(time: (now - 120_000) << 16, replica: replica))
        var payload = PayloadEncoder()
        payload.encode(
            ChangeSetHeader(
                vaultId: "vault-1",
                origin: replica,
                since: 0,
                through: 1,
                knowledge: [:],
                clearedThrough: Stamp(time: (now - 60_000) << 16, replica: replica)
            )
        )
        payload.encode(received)
        let secret = BundleSecret.syncKey(.generate())
        let path = try await BundleFixture.seal(payload.bytes, with: secret, in: test.directory)
        _ = try await test.ledger.importBundle(at: path, secret: secret)
        let stored = try #require(try await test.ledger.state(received.id))
        #expect(stored.facts == received.facts)
        #expect(stored.note == nil)
    }
}
