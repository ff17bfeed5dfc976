import Foundation
import Testing
@testable import TxLedger

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
        #expect(throws: BundleError.malformedContent("a varint overflows 64 bits")) { try decodeU([UInt8](repeating: 0xFF, count: 9) + [0x02]) }
        #expect(throws: BundleError.malformedContent("a record frame ends inside a field")) { try decodeU([0x80]) }
        var frame = FrameBytes([0x02, 0xC3, 0x28])
        #expect(throws: BundleError.malformedContent("a text is not valid UTF-8")) { try frame.readText(limit: 10) }
        var long = FrameBytes([0x0B] + Array("hello world".utf8))
        #expect(throws: BundleError.malformedContent("a text length 11 exceeds 10")) { try long.readText(limit: 10) }
    }

    /// A change set encoded by hand from Specs/bundle-format.md (an independent Python encoder
    /// produced the hex): a knowledge entry, a watermark, and a minimal send whose explorer URL
    /// is the default and so left out.
    static let golden = "0176000000000000000100010101000000000000000205018680c03e020000000000000003a301010473656e64020865"
        + "7468657265756d0380d8ddddf86504423078303030303030303030303030303030303030303030303030303030303030"
        + "303030303030303030303030303030303030303030303030303030303030303030310c2a307830303030303030303030"
        + "3030303030303030303030303030303030303030303030303030303030310d01310e0345544825808080e0f6f6e29703"
        + "26030000000000000004"

    @Test func theEncodingIsTheSpecsByteForByte() throws {
        let header = ChangeSetHeader(vaultId: "v", origin: ReplicaID(rawValue: 1), since: 0, through: 1,
                                     knowledge: [ReplicaID(rawValue: 2): 5],
                                     clearedThrough: Stamp(millis: 1000, counter: 3, replica: ReplicaID(rawValue: 3)))
        let record = RecordState(recording: try Fixture.minimalSend(vault: "v", hash: 1),
                                 stamp: Stamp(millis: 1_751_371_200_000, replica: ReplicaID(rawValue: 4)))
        var encoder = PayloadEncoder()
        encoder.encode(header)
        encoder.encode(record)
        #expect(encoder.bytes.map { String(format: "%02x", $0) }.joined() == Self.golden)

        // And the decoder reads those bytes back to the same change set.
        let folder = try TemporaryDirectory()
        let path = folder.path("golden.txb"), secret = BundleSecret.syncKey(.generate())
        let writer = try BundleWriter(path: path, secret: secret, cost: .interactive)
        try writer.write(encoder.bytes)
        _ = try writer.finish()
        #expect(try BundleVector.decode(path, secret: secret) == BundleVector.Contents(header, records: [record]))
    }
}
