import TxLedgerSodium

/// Identity of one ledger file (a replica). Chosen at random when the ledger is created and
/// kept for its lifetime. It is the tie-break of `Stamp` ordering.
///
/// 63 random bits (a non-negative `Int64`), so it stores as a plain SQLite INTEGER and sorts
/// the same way in SQL and in Swift. Written as 16 lowercase hex digits.
public struct ReplicaID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64

    package init(rawValue: Int64) {
        precondition(rawValue >= 0, "replica ids are non-negative")
        self.rawValue = rawValue
    }

    /// A fresh random replica id from libsodium's CSPRNG.
    package static func random() -> ReplicaID {
        let bytes = Sodium.randomBytes(8)
        let value = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & UInt64(Int64.max)
        return ReplicaID(rawValue: Int64(value))
    }

    /// Parses the 16-hex-digit form that `description` prints.
    public init?(hex: String) {
        guard hex.count == 16, let value = UInt64(hex, radix: 16), value <= UInt64(Int64.max) else { return nil }
        self.init(rawValue: Int64(value))
    }

    public var description: String {
        let digits = String(UInt64(rawValue), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    public static func < (lhs: ReplicaID, rhs: ReplicaID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// In JSON, the 16-hex-digit form.
extension ReplicaID: Codable {
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = ReplicaID(hex: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a replica id (16 hex digits)")
            )
        }
        self = id
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
