import TxLedgerCore
import TxLedgerMembership

/// What a format 5 payload carries after its change set header (Specs/devices.md, "Format 5"):
/// its author's device id, the vault's first recovery identity, and the membership log the
/// author holds (each operation as a `uvarint` length and its encoding, in increasing id).
package struct DeviceSection: Equatable, Sendable {
    package let author: DeviceID
    package let firstRecovery: PublicIdentity
    /// In increasing id.
    package let operations: [MembershipOperation]

    /// The longest encoded operation read (one holds at most 64 parents: about 2.6 KB).
    static let maxOperationBytes = 4096

    package init(author: DeviceID, firstRecovery: PublicIdentity, operations: [MembershipOperation]) {
        self.author = author
        self.firstRecovery = firstRecovery
        self.operations = operations.sorted { $0.id < $1.id }
    }

    /// The section's bytes.
    package var bytes: [UInt8] {
        var bytes = author.bytes + firstRecovery.bytes
        bytes.appendUVarint(UInt64(operations.count))
        for operation in operations {
            let encoded = operation.encoded
            bytes.appendUVarint(UInt64(encoded.count))
            bytes += encoded
        }
        return bytes
    }

    /// Reads a section of a payload of `vault`.
    /// - Throws: `BundleError.malformedContent` for an operation that does not decode or
    ///   verify, names another vault, comes twice or out of order, or counts and lengths beyond
    ///   their limits.
    package init(reading source: inout some PayloadSource, vault: String) throws {
        author = DeviceID(bytes: try source.readBytes(DeviceID.byteCount))
        firstRecovery = try PublicIdentity(bytes: try source.readBytes(2 * PublicIdentity.keyCount))
        let count = try source.readCount(limit: MembershipLog.maxOperations, "the membership operation count")
        var operations: [MembershipOperation] = []
        for _ in 0..<count {
            let length = try source.readCount(limit: Self.maxOperationBytes, "a membership operation's length")
            let operation = try MembershipOperation(encoded: try source.readBytes(length))
            guard operation.vault == vault else {
                throw BundleError.malformedContent("a membership operation names another vault")
            }
            guard operations.last.map({ $0.id < operation.id }) ?? true else {
                throw BundleError.malformedContent("the membership operations are not in increasing id order")
            }
            operations.append(operation)
        }
        self.operations = operations
    }
}
