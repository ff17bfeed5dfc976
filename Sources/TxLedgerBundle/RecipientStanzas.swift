import TxLedgerCore
import TxLedgerMembership
import TxLedgerSodium

/// The file key of a format 5 bundle wrapped for each of its recipients, as age's recipient
/// stanzas (Specs/devices.md, "Format 5"): a big-endian count from 1 to 257, then one
/// `crypto_box_seal` of the 32-byte file key (80 bytes) per recipient, in a random order. No
/// stanza names its recipient: a reader tries its own key on each.
package struct RecipientStanzas: Equatable, Sendable {
    /// The sealed boxes, 80 bytes each.
    package let stanzas: [[UInt8]]

    static let fileKeyBytes = 32
    static let stanzaBytes = fileKeyBytes + BoxKeyPair.sealOverhead
    /// The most recipients: 256 members and a recovery identity.
    package static let maxCount = 257

    /// `fileKey` sealed for each recipient (each identity once), in a random order.
    package init(sealing fileKey: SecretBytes, for recipients: [PublicIdentity]) {
        precondition(fileKey.count == Self.fileKeyBytes && (1...Self.maxCount).contains(Set(recipients).count))
        var stanzas = Set(recipients).map { BoxKeyPair.seal(fileKey, for: $0.boxKey) }
        stanzas.shuffle()
        self.stanzas = stanzas
    }

    /// The stanzas that follow a format 5 header's fixed part in `source`.
    /// - Throws: `BundleError.malformedContent` for a count of 0 or more than `maxCount`, or
    ///   bytes missing.
    package init(reading source: inout some PayloadSource) throws {
        let count = Int(UInt64(bigEndian: try source.readBytes(2)[...]))
        guard (1...Self.maxCount).contains(count) else {
            throw BundleError.malformedContent("a bundle has \(count) recipients; 1 to \(Self.maxCount) are allowed")
        }
        stanzas = try (0..<count).map { _ in try source.readBytes(Self.stanzaBytes) }
    }

    /// The count and the stanzas, as the header writes them.
    package var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendBigEndian(UInt64(stanzas.count), width: 2)
        for stanza in stanzas { bytes += stanza }
        return bytes
    }

    /// The file key, if a stanza is sealed for `identity`.
    package func fileKey(for identity: DeviceIdentity) -> SecretBytes? {
        for stanza in stanzas {
            if let key = identity.open(stanza), key.count == Self.fileKeyBytes { return key }
        }
        return nil
    }
}
