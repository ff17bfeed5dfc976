import Foundation
import Testing

@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerMembership
@testable import TxLedgerSodium

/// Format 5's recipient stanzas and keys (Specs/devices.md, "Format 5"), against the vectors
/// scripts/device-vectors.py seals with libsodium alone.
struct RecipientStanzaTests {
    private static func equal(_ a: SecretBytes?, _ b: [UInt8]) -> Bool {
        a?.withUnsafeBytes { Array($0) == b } ?? false
    }

    @Test func theSpecsStanzasOpenForTheirRecipientAndGiveTheKeys() throws {
        let vector = try DeviceIdentityTests.vector("stanzas")
        let recipient = DeviceIdentityTests.identity(seedHex: try #require(vector["recipientSeed"] as? String))
        var source = FrameBytes(DeviceIdentityTests.bytes(try #require(vector["stanzas"] as? String)), unit: "stanzas")
        let stanzas = try RecipientStanzas(reading: &source)
        #expect(source.isAtEnd && stanzas.stanzas.count == 2)
        let fileKey = try #require(stanzas.fileKey(for: recipient))
        #expect(Self.equal(fileKey, DeviceIdentityTests.bytes(try #require(vector["fileKey"] as? String))))
        let keys = BundleKeys(
            fileKey: fileKey,
            salt: DeviceIdentityTests.bytes(try #require(vector["salt"] as? String))
        )
        #expect(Self.equal(keys.keyCheck, DeviceIdentityTests.bytes(try #require(vector["keyCheck"] as? String))))
        #expect(stanzas.fileKey(for: DeviceIdentity.generate()) == nil)
    }

    @Test func onlyTheRecipientsOpenTheFileKey() throws {
        let members = (0..<3).map { _ in DeviceIdentity.generate() }
        let removed = DeviceIdentity.generate()
        let fileKey = SecretBytes.random(count: 32)
        let stanzas = RecipientStanzas(
            sealing: fileKey,
            for: members.map(\.publicIdentity) + [members[0].publicIdentity]
        )
        #expect(stanzas.stanzas.count == 3 && stanzas.bytes.count == 2 + 3 * 80)
        var source = FrameBytes(stanzas.bytes, unit: "stanzas")
        let read = try RecipientStanzas(reading: &source)
        #expect(read == stanzas)
        for member in members {
            #expect(Self.equal(read.fileKey(for: member), fileKey.withUnsafeBytes { Array($0) }))
        }
        #expect(read.fileKey(for: removed) == nil)
    }

    @Test func aCountOutsideOneTo257IsMalformed() {
        for count in [0, 258] {
            var bytes: [UInt8] = []
            bytes.appendBigEndian(UInt64(count), width: 2)
            bytes += [UInt8](repeating: 0, count: 80)
            var source = FrameBytes(bytes, unit: "stanzas")
            #expect(throws: BundleError.self) { try RecipientStanzas(reading: &source) }
        }
        var cut = FrameBytes([0, 2] + [UInt8](repeating: 0, count: 100), unit: "stanzas")
        #expect(throws: BundleError.self) { try RecipientStanzas(reading: &cut) }
    }
}
