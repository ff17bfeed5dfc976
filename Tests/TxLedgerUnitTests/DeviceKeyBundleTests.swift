import Foundation
import Testing

@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerMembership
@testable import TxLedgerSodium
@testable import TxLedgerTestSupport

/// Format 5 files (Specs/devices.md, "Format 5"): sealed for their recipients through stanzas,
/// signed by their author, the signature held back from the payload in the same stream.
struct DeviceKeyBundleTests {
    let author = DeviceIdentity.generate()
    let tablet = DeviceIdentity.generate()
    let phone = DeviceIdentity.generate()

    /// Writes `payload` in pieces as a format 5 bundle for the author and the tablet.
    func write(_ payload: [UInt8], in directory: TemporaryDirectory, name: String = "b.txb") throws -> String {
        let path = directory.path(name)
        let writer = try BundleWriter(
            path: path,
            author: author,
            recipients: [author.publicIdentity, tablet.publicIdentity]
        )
        var offset = 0
        while offset < payload.count {
            let end = min(payload.count, offset + 40_000)
            try writer.write(Array(payload[offset..<end]))
            offset = end
        }
        _ = try writer.finish()
        return path
    }

    /// Every payload byte `reader` yields.
    func readAll(_ reader: BundleReader) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let chunk = try reader.nextChunk() { bytes += chunk }
        return bytes
    }

    @Test(arguments: [1, 63, 64, 65, 65_471, 65_472, 65_473, 65_536, 65_537, 3 * 65_536, 200_000])
    func everyRecipientReadsThePayloadAndTheAuthorsSignature(size: Int) throws {
        let directory = try TemporaryDirectory()
        let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let path = try write(payload, in: directory)
        for recipient in [author, tablet] {
            let reader = try BundleReader(path: path, device: recipient)
            #expect(reader.header.version == 5 && reader.header.mode == .deviceKeys)
            #expect(try readAll(reader) == payload)
            #expect(reader.verifySignature(author: author.publicIdentity))
            // Asked again (another candidate author, then the same): the same answers.
            #expect(!reader.verifySignature(author: phone.publicIdentity))
            #expect(reader.verifySignature(author: author.publicIdentity))
        }
        let forged = try BundleReader(path: path, device: tablet)
        _ = try readAll(forged)
        #expect(!forged.verifySignature(author: tablet.publicIdentity))
    }

    @Test func aDeviceThatIsNoRecipientOrASharedSecretCannotOpenIt() throws {
        let directory = try TemporaryDirectory()
        let path = try write(Array("a change set".utf8), in: directory)
        #expect(throws: BundleError.notARecipient) { try BundleReader(path: path, device: phone) }
        #expect(throws: BundleError.secretKindMismatch(bundle: .deviceKeys)) {
            try BundleReader(path: path, secret: .syncKey(.generate()))
        }
        let error = BundleError.notARecipient
        #expect(error.localizedDescription.contains("removed from the vault"))
    }

    @Test func anyChangedByteOfTheHeaderIsRefusedBeforeAnyPayload() throws {
        let directory = try TemporaryDirectory()
        let path = try write(Array(repeating: 9, count: 1000), in: directory)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let headerSize = try BundleReader(path: path, device: tablet).header.size
        #expect(headerSize == 110 + 2 + 2 * 80)
        for offset in 0..<headerSize {
            var changed = original
            changed[offset] ^= 0x20
            let changedPath = directory.path("h\(offset).txb")
            try changed.write(to: URL(fileURLWithPath: changedPath))
            #expect(throws: BundleError.self) {
                let reader = try BundleReader(path: changedPath, device: tablet)
                _ = try readAll(reader)
            }
        }
    }

    @Test func aChangedOrCutStreamIsRefusedAndAChangedSignatureDoesNotVerify() throws {
        let directory = try TemporaryDirectory()
        let payload = [UInt8](repeating: 3, count: 70_000)
        let path = try write(payload, in: directory)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let headerSize = 110 + 2 + 2 * 80

        var changed = original
        changed[headerSize + 100] ^= 1
        try changed.write(to: URL(fileURLWithPath: directory.path("c.txb")))
        #expect(throws: BundleError.payloadTampered(chunk: 0)) {
            _ = try readAll(try BundleReader(path: directory.path("c.txb"), device: tablet))
        }

        let cut = original.prefix(headerSize + 65_553)
        try cut.write(to: URL(fileURLWithPath: directory.path("t.txb")))
        #expect(throws: BundleError.truncated) {
            _ = try readAll(try BundleReader(path: directory.path("t.txb"), device: tablet))
        }

        // The same payload signed by another device: authentic for its recipients, but not the
        // author's signature.
        let other = try BundleWriter(path: directory.path("o.txb"), author: phone, recipients: [tablet.publicIdentity])
        try other.write(payload)
        _ = try other.finish()
        let reader = try BundleReader(path: directory.path("o.txb"), device: tablet)
        #expect(try readAll(reader) == payload)
        #expect(!reader.verifySignature(author: author.publicIdentity))
    }
}
