import TxLedgerCore
import TxLedgerMembership

/// A vault's membership log alone, in a format 5 file that a sync folder carries beside the
/// change sets (Specs/devices.md, "Membership notices"): sealed for every device the log ever
/// added (removed ones too) and the recovery identities, signed by its writer. A removed device
/// reads no change set written after its removal, but learns from a notice that it was
/// removed, and two devices that removed each other learn each other's removal.
///
/// Its payload is the vault id (`text`) and a device section (`DeviceSection`), nothing after.
package enum MembershipNotice {
    /// Writes a notice of `vault`'s log, signed by `author`, for `recipients`, at `path`.
    package static func write(
        vault: String,
        devices: DeviceSection,
        author: DeviceIdentity,
        recipients: [PublicIdentity],
        to path: String
    ) throws {
        let writer = try BundleWriter(path: path, author: author, recipients: recipients)
        var bytes: [UInt8] = []
        bytes.appendText(vault)
        bytes += devices.bytes
        try writer.write(bytes)
        _ = try writer.finish()
    }

    /// Reads a notice to its end (every chunk authenticated; its signature then checkable with
    /// `reader.verifySignature(author:)`).
    /// - Throws: `BundleError.malformedContent` for a payload that is not a vault id and a
    ///   device section, or has bytes after it.
    package static func read(_ reader: BundleReader) throws -> (vault: String, devices: DeviceSection) {
        var source = StreamBytes(reader)
        let vault = try PayloadDecoder.readVault(from: &source)
        let devices = try DeviceSection(reading: &source, vault: vault)
        guard try source.isAtEnd() else {
            throw BundleError.malformedContent("a membership notice has bytes after its log")
        }
        return (vault, devices)
    }
}
