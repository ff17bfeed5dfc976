import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// The payload's primitive encodings and the determinism of the change set encoding.
@Suite struct PayloadEncodingTests {
    private func decodeU(_ bytes: [UInt8]) throws -> UInt64 {
        var frame = FrameBytes(bytes)
        let value = try frame.readUVarint()
        #expect(frame.isAtEnd)
        return value
    }

    @Test func varintsRoundTripAtTheirEdges() throws {
        for value: UInt64 in [0, 1, 127, 128, 255, 300, 16_383, 16_384, UInt64(Int64.max), UInt64.max] {
            var bytes: [UInt8] = []
            bytes.appendUVarint(value)
            #expect(try decodeU(bytes) == value)
        }
        for value: Int64 in [0, -1, 1, -64, 64, Int64.min, Int64.max, 114_777_863_094_272_005] {
            var bytes: [UInt8] = []
            bytes.appendSVarint(value)
            var frame = FrameBytes(bytes)
            #expect(try frame.readSVarint() == value)
        }
        var bytes: [UInt8] = []
        bytes.appendUVarint(300)
        #expect(bytes == [0xAC, 0x02], "LEB128 as protobuf writes it")
        bytes = []
        bytes.appendSVarint(-3)
        #expect(bytes == [0x05], "zigzag: -3 is 5")
    }

    @Test func nonCanonicalOrOverlongVarintsAreRefused() {
        #expect(throws: BundleError.malformedContent("a varint is not minimal")) { try decodeU([0x80, 0x00]) }
        #expect(throws: BundleError.malformedContent("a varint overflows 64 bits")) {
            try decodeU([UInt8](repeating: 0xFF, count: 9) + [0x02])
        }
        #expect(throws: BundleError.malformedContent("a record frame ends inside a field")) { try decodeU([0x80]) }
        var frame = FrameBytes([0x02, 0xC3, 0x28])
        #expect(throws: BundleError.malformedContent("a text is not valid UTF-8")) { try frame.readText(limit: 10) }
        var long = FrameBytes([0x0B] + Array("hello world".utf8))
        #expect(throws: BundleError.malformedContent("a text length 11 exceeds 10")) { try long.readText(limit: 10) }
    }

    /// The header of the golden payloads: a knowledge entry and a watermark; from format 3, an
    /// epoch and the knowledge entry's epoch too.
    static let goldenHeader = ChangeSetHeader(
        vaultId: "v",
        origin: ReplicaID(rawValue: 1),
        since: 0,
        through: 1,
        knowledge: [ReplicaID(rawValue: 2): 5],
        knowledgeEpochs: [ReplicaID(rawValue: 2): EpochID(rawValue: 0x0B)],
        lineage: [Epoch(id: EpochID(rawValue: 0x0A), firstSeq: 1)],
        clearedThrough: Stamp(millis: 1000, counter: 3, replica: ReplicaID(rawValue: 3))
    )
    static let formatTwoHeader = ChangeSetHeader(
        vaultId: "v",
        origin: ReplicaID(rawValue: 1),
        since: 0,
        through: 1,
        knowledge: [ReplicaID(rawValue: 2): 5],
        clearedThrough: Stamp(millis: 1000, counter: 3, replica: ReplicaID(rawValue: 3))
    )

    /// `goldenHeader` and `goldenRecords(withNewerFields: true)` in format 4, written from
    /// Specs/bundle-format.md independently of the Swift encoder: the format 2 bytes of an
    /// independent Python encoder (every kind of field, shared texts introduced and referred to,
    /// hex in forms 1 and 2, times and stamps as differences), the header's epochs added by hand
    /// for format 3, then re-tagged by an independent Python script (each tag the step from the
    /// previous number shifted by 3, or'ed with the kind's wire type) with the swap's newer
    /// fields appended by hand (renumbered by hand from 57 and 58 to 100 and 101 when field 57
    /// became `replaces`: the two tags that step to and from them, and the swap's frame length,
    /// one byte longer).
    static let golden =
        "01760000000000000001000101000000000000000a010101000000000000000205000000000000000b018680c03e0200"
        + "00000000000003690b011073656e640b0220657468657265756d0880d8ddddf8650a8101000000000000000000000000"
        + "0000000000000000000000000000000000000001425100000000000000000000000000000000000000010a04310b030c"
        + "455448b90100000c0300000000000000046a0b010b0208a0f4deddf8650a810100000000000000000000000000000000"
        + "00000000000000000000000000000002425100000000000000000000000000000000000000010a04310b03b90100010c"
        + "031b0424636f6e6669726d656408e0d40311e0d403020c0208f0a204df020b0510737761700b062474686f7263686169"
        + "6e0880d8ddddf8650a820100000000000000000000000000000000000000000000000000000000000000031218353132"
        + "2e30300b07ac0174686f7231717a64356a6e7a7a38716d397779326838783876397a336d347776307130767178307235"
        + "6c6423081c6465706f7369744b091052554e450b0a2454484f522e52554e4508100a143130302e350b060b0b70687474"
        + "70733a2f2f6578616d706c652e636f6d2f72756e652e706e670b0c0c42544310100a28302e30303132333435360a1830"
        + "2e303031320b0d1c626974636f696e0b0e6c68747470733a2f2f6578616d706c652e636f6d2f6274632e706e670b0f24"
        + "54484f52436861696e0b106452554e45202d3e20425443207669612054484f52436861696e1900050c011b0408e0d403"
        + "1100050c01b803ac020b11146e65776572d9f002d00f020c030d0201020a09abcd0c04000000000000000d0b11"

    /// `goldenHeader` and `goldenRecords()` as format 3 wrote it (the format 2 bytes of the
    /// independent encoder with the header's epochs added by hand). Readers keep reading it.
    static let formatThreeGolden =
        "01760000000000000001000101000000000000000a010101000000000000000205000000000000000b018680c03e0200"
        + "000000000000036801011073656e64020220657468657265756d0380d8ddddf865048101000000000000000000000000"
        + "00000000000000000000000000000000000000010c5100000000000000000000000000000000000000010d04310e030c"
        + "45544825000026030000000000000004690101020203a0f4deddf8650481010000000000000000000000000000000000"
        + "0000000000000000000000000000020c5100000000000000000000000000000000000000010d04310e03250001260329"
        + "0424636f6e6669726d65642ae0d4032ce0d403022d022ef0a204b7020105107377617002062474686f72636861696e03"
        + "80d8ddddf865048201000000000000000000000000000000000000000000000000000000000000000306183531322e30"
        + "300707ac0174686f7231717a64356a6e7a7a38716d397779326838783876397a336d3477763071307671783072356c64"
        + "0b081c6465706f73697414091052554e45150a2454484f522e52554e45161017143130302e351806190b706874747073"
        + "3a2f2f6578616d706c652e636f6d2f72756e652e706e671a0c0c4254431c101d28302e30303132333435361e18302e30"
        + "3031321f0d1c626974636f696e200e6c68747470733a2f2f6578616d706c652e636f6d2f6274632e706e67210f245448"
        + "4f52436861696e22106452554e45202d3e20425443207669612054484f52436861696e250005260129042ae0d4032c00"
        + "052d01"

    /// The same change set as format 2 wrote it (from the same independent encoder): a header
    /// without epochs. Readers keep reading it.
    static let formatTwoGolden =
        "0176000000000000000100010101000000000000000205018680c03e0200000000000000036801011073656e64020220"
        + "657468657265756d0380d8ddddf865048101000000000000000000000000000000000000000000000000000000000000"
        + "00010c5100000000000000000000000000000000000000010d04310e030c455448250000260300000000000000046901"
        + "01020203a0f4deddf86504810100000000000000000000000000000000000000000000000000000000000000020c5100"
        + "000000000000000000000000000000000000010d04310e032500012603290424636f6e6669726d65642ae0d4032ce0d4"
        + "03022d022ef0a204b7020105107377617002062474686f72636861696e0380d8ddddf865048201000000000000000000"
        + "000000000000000000000000000000000000000000000306183531322e30300707ac0174686f7231717a64356a6e7a7a"
        + "38716d397779326838783876397a336d3477763071307671783072356c640b081c6465706f73697414091052554e4515"
        + "0a2454484f522e52554e45161017143130302e351806190b7068747470733a2f2f6578616d706c652e636f6d2f72756e"
        + "652e706e671a0c0c4254431c101d28302e30303132333435361e18302e303031321f0d1c626974636f696e200e6c6874"
        + "7470733a2f2f6578616d706c652e636f6d2f6274632e706e67210f2454484f52436861696e22106452554e45202d3e20"
        + "425443207669612054484f52436861696e250005260129042ae0d4032c00052d01"

    /// Three records: two minimal sends, the second confirmed and checked, then a THORChain swap;
    /// with newer fields, the swap carries two facts and a register of block 6 of a newer version:
    /// 100 varint 300, 101 stext `newer` (a new shared text), 6000 and 6001 the register's stamp
    /// (1000 ms after the facts stamp, counter 2, replica 4, already in the table), 6002 bytes
    /// `01 02`, 6003 ctext `0xabcd`, 6004 replica 0x0D (new in the table), 6005 stext `newer`
    /// (a reference).
    static func goldenRecords(withNewerFields: Bool = false) throws -> [RecordState] {
        let (r2, r3, r4) = (ReplicaID(rawValue: 2), ReplicaID(rawValue: 3), ReplicaID(rawValue: 4))
        let first = RecordState(
            recording: try Fixture.minimalSend(vault: "v", hash: 1),
            stamp: Stamp(millis: 1_751_371_200_000, replica: r4)
        )
        var second = RecordState(
            recording: try Fixture.minimalSend(vault: "v", hash: 2, at: Fixture.start.addingTimeInterval(10)),
            stamp: Stamp(millis: 1_751_371_210_000, counter: 1, replica: r4)
        )
        let confirmed = StatusUpdate(
            checked: .confirmed,
            confirmedAt: Fixture.start.addingTimeInterval(40),
            failureReason: nil
        )
        second.status = StatusRegister(
            terminal: Register(confirmed, stamp: Stamp(millis: 1_751_371_240_000, counter: 2, replica: r3))
        )
        second.lastCheckedAt = Fixture.start.addingTimeInterval(45)
        var swap = RecordState(
            recording: try Fixture.swap(vault: "v", hash: 3, receipt: false),
            stamp: Stamp(millis: 1_751_371_200_000, counter: 5, replica: r2)
        )
        if withNewerFields {
            swap = try swap.attaching(
                NewerFields([
                    NewerField(number: 100, value: .varint(300)), NewerField(number: 101, value: .sharedText("newer")),
                    NewerField(
                        number: 6000,
                        value: .stampTime(Stamp(millis: 1_751_371_201_000, counter: 2, replica: r4).time)
                    ),
                    NewerField(number: 6001, value: .replica(r4)), NewerField(number: 6002, value: .bytes([1, 2])),
                    NewerField(number: 6003, value: .text("0xabcd")),
                    NewerField(number: 6004, value: .replica(ReplicaID(rawValue: 0x0D))),
                    NewerField(number: 6005, value: .sharedText("newer")),
                ])
            )
        }
        return [first, second, swap]
    }

    @Test func theEncodingIsTheSpecsByteForByte() async throws {
        let records = try Self.goldenRecords(withNewerFields: true)
        var encoder = PayloadEncoder()
        encoder.encode(Self.goldenHeader)
        for record in records { encoder.encode(record) }
        #expect(Self.hex(encoder.bytes) == Self.golden)

        // And the decoder reads those bytes back to the same change set.
        let folder = try TemporaryDirectory()
        let secret = BundleSecret.syncKey(.generate())
        let path = try await BundleFixture.seal(encoder.bytes, with: secret, in: folder)
        #expect(
            try await BundleVector.decode(path, secret: secret)
                == BundleVector.Contents(Self.goldenHeader, records: records)
        )
    }

    @Test func aFormatThreePayloadIsStillRead() async throws {
        let folder = try TemporaryDirectory()
        let secret = BundleSecret.syncKey(.generate())
        let path = try await BundleFixture.seal(
            try Self.bytes(Self.formatThreeGolden),
            with: secret,
            in: folder,
            version: 3
        )
        #expect(
            try await BundleVector.decode(path, secret: secret)
                == BundleVector.Contents(Self.goldenHeader, records: try Self.goldenRecords())
        )
    }

    @Test func aFormatTwoPayloadIsStillRead() async throws {
        let folder = try TemporaryDirectory()
        let secret = BundleSecret.syncKey(.generate())
        let path = try await BundleFixture.seal(
            try Self.bytes(Self.formatTwoGolden),
            with: secret,
            in: folder,
            version: 2
        )
        #expect(
            try await BundleVector.decode(path, secret: secret)
                == BundleVector.Contents(Self.formatTwoHeader, records: try Self.goldenRecords())
        )
    }

    /// A format 1 payload (as the format 1 writer wrote it, from an independent Python encoder):
    /// `formatTwoHeader` and a minimal send whose explorer URL is the default and so left out.
    static let formatOneGolden =
        "0176000000000000000100010101000000000000000205018680c03e020000000000000003a301010473656e64020865"
        + "7468657265756d0380d8ddddf86504423078303030303030303030303030303030303030303030303030303030303030"
        + "303030303030303030303030303030303030303030303030303030303030303030310c2a307830303030303030303030"
        + "3030303030303030303030303030303030303030303030303030303030310d01310e0345544825808080e0f6f6e29703"
        + "26030000000000000004"

    @Test func aFormatOnePayloadIsStillRead() async throws {
        let record = RecordState(
            recording: try Fixture.minimalSend(vault: "v", hash: 1),
            stamp: Stamp(millis: 1_751_371_200_000, replica: ReplicaID(rawValue: 4))
        )
        let folder = try TemporaryDirectory()
        let secret = BundleSecret.syncKey(.generate())
        let payload = try Self.bytes(Self.formatOneGolden)
        let path = try await BundleFixture.seal(payload, with: secret, in: folder, version: 1)
        #expect(
            try await BundleVector.decode(path, secret: secret)
                == BundleVector.Contents(Self.formatTwoHeader, records: [record])
        )
        // The same bytes read as format 2 are not that change set.
        let asFormatTwo = try await BundleFixture.seal(payload, with: secret, in: folder)
        await #expect(throws: BundleError.self) { try await BundleVector.decode(asFormatTwo, secret: secret) }
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func bytes(_ hex: String) throws -> [UInt8] {
        let digits = Array(hex.utf8)
        return try stride(from: 0, to: digits.count, by: 2).map { index in
            try #require(UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16))
        }
    }
}
