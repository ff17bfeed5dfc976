import Foundation
import Testing

@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerMembership
@testable import TxLedgerSodium

/// A format 5 bundle's signature (Specs/devices.md, "Format 5"), against the vector
/// scripts/device-vectors.py signs with libsodium alone.
struct BundleSignatureTests {
    @Test func aPayloadHashedInPiecesSignsAsTheSpecSays() throws {
        let vector = try DeviceIdentityTests.vector("signature")
        let author = DeviceIdentityTests.identity(seedHex: try #require(vector["authorSeed"] as? String))
        let header = DeviceIdentityTests.bytes(try #require(vector["header"] as? String))
        let pattern = Array(try #require(vector["payloadPattern"] as? String).utf8)
        let payload = Array(
            [[UInt8]](repeating: pattern, count: try #require(vector["payloadRepeats"] as? Int)).joined()
        )
        let hash = BundleSignature.payloadHash()
        var offset = 0
        for size in [1, 7, 65536, 3, 100_000] where offset < payload.count {
            hash.update(Array(payload[offset..<min(payload.count, offset + size)]))
            offset += size
        }
        hash.update(Array(payload[min(offset, payload.count)...]))
        let digest = hash.finish()
        #expect(digest == DeviceIdentityTests.bytes(try #require(vector["payloadHash"] as? String)))
        let signature = BundleSignature.sign(header: header, payloadHash: digest, by: author)
        #expect(signature == DeviceIdentityTests.bytes(try #require(vector["signature"] as? String)))
        #expect(BundleSignature.verify(signature, header: header, payloadHash: digest, author: author.publicIdentity))

        var changedHeader = header
        changedHeader[3] ^= 1
        #expect(
            !BundleSignature.verify(
                signature,
                header: changedHeader,
                payloadHash: digest,
                author: author.publicIdentity
            )
        )
        var changedHash = digest
        changedHash[0] ^= 1
        #expect(
            !BundleSignature.verify(signature, header: header, payloadHash: changedHash, author: author.publicIdentity)
        )
        let other = DeviceIdentity.generate().publicIdentity
        #expect(!BundleSignature.verify(signature, header: header, payloadHash: digest, author: other))
    }
}
