import TxLedgerCore

/// A device's id: `BLAKE2b-128("TXLDEVID" || signPublicKey || boxPublicKey)` of its public
/// identity (Specs/devices.md, "Device identity"). Ordered by its bytes.
public struct DeviceID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 16 bytes.
    public let bytes: [UInt8]

    package static let byteCount = 16

    package init(bytes: [UInt8]) {
        precondition(bytes.count == Self.byteCount)
        self.bytes = bytes
    }

    /// The id as 26 Crockford base32 symbols (`7ZQ4M2K9…`), as `txledger devices` shows it.
    public var description: String { CrockfordBase32.encode(bytes, prefix: "", groupSize: .max) }

    /// The fingerprint two people compare when a device joins: the first 10 bytes (80 bits) in
    /// Crockford base32, in four groups of four (`7ZQ4-M2K9-…`).
    public var fingerprint: String { CrockfordBase32.encode(Array(bytes.prefix(10)), prefix: "", groupSize: 4) }

    /// Parses `description`'s form (any case; dashes and spaces ignored).
    public init?(_ text: String) {
        guard case let .success(bytes) = CrockfordBase32.decode(text, prefix: "", byteCount: Self.byteCount) else {
            return nil
        }
        self.init(bytes: bytes)
    }

    public static func < (lhs: DeviceID, rhs: DeviceID) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
}
