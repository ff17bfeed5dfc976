import TxLedgerMembership
import TxLedgerSodium

/// A format 5 bundle's signature (Specs/devices.md, "Format 5"): its author's Ed25519
/// signature over `"TXLBSIG5" || the header's bytes || BLAKE2b-512(payload)`, carried by the
/// final chunk. The payload is hashed as it is written or read (`payloadHash`).
package struct BundleSignature {
    static let context = Array("TXLBSIG5".utf8)
    /// The BLAKE2b output length over the payload.
    static let payloadHashBytes = 64

    /// The hash the payload is fed to, chunk by chunk.
    package static func payloadHash() -> IncrementalHash { IncrementalHash(outputLength: payloadHashBytes) }

    /// What the author signs.
    static func message(header: [UInt8], payloadHash: [UInt8]) -> [UInt8] {
        context + header + payloadHash
    }

    /// The signature by `author` of a bundle with these header bytes and payload hash.
    package static func sign(header: [UInt8], payloadHash: [UInt8], by author: DeviceIdentity) -> [UInt8] {
        author.sign(message(header: header, payloadHash: payloadHash))
    }

    /// Whether `signature` is `author`'s over these header bytes and payload hash.
    package static func verify(
        _ signature: [UInt8],
        header: [UInt8],
        payloadHash: [UInt8],
        author: PublicIdentity
    ) -> Bool {
        author.verifies(signature, of: message(header: header, payloadHash: payloadHash))
    }
}
