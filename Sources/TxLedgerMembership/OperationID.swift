import TxLedgerCore

/// A membership operation's id: `BLAKE2b-256(bytes || signature)` (Specs/devices.md,
/// "Operations"). Ordered by its bytes.
public struct OperationID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 32 bytes.
    public let bytes: [UInt8]

    static let byteCount = 32

    package init(bytes: [UInt8]) {
        precondition(bytes.count == Self.byteCount)
        self.bytes = bytes
    }

    /// The first 8 bytes in hex, for messages.
    public var description: String { bytes.prefix(8).map { String($0, radix: 16).leftPadded(to: 2) }.joined() }

    public static func < (lhs: OperationID, rhs: OperationID) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
