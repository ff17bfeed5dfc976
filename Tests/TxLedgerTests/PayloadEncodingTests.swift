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

    @Test func theEncodingIsDeterministic() async throws {
        let a = try TestLedger()
        try await a.ledger.record([try Fixture.send(status: .pending), try Fixture.swap(), try Fixture.signature()])
        let changes = try await a.ledger.changes(vault: "vault-1")
        func encoded() -> [UInt8] {
            var encoder = PayloadEncoder()
            encoder.encode(changes.header)
            changes.records.forEach { encoder.encode($0) }
            return encoder.bytes
        }
        #expect(encoded() == encoded())
        // Replica ids are written once: the origin's 8 bytes appear once, in the header.
        var origin: [UInt8] = []
        origin.appendBigEndian(UInt64(a.ledger.replicaID.rawValue), width: 8)
        #expect(encoded().ranges(of: origin).count == 1)
    }
}
