/// Which kind of secret seals a bundle (the header's key mode byte, Specs/bundle-format.md).
///
/// A struct with a constant per mode, as the error codes are (Specs/errors.md): a later version
/// may add modes without breaking an app whose `switch` over modes has a `default:`.
public struct KeyMode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: UInt8

    /// A mode by its byte; `nil` for one this version does not know.
    public init?(rawValue: UInt8) {
        guard Self.known.contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    private init(_ rawValue: UInt8) { self.rawValue = rawValue }

    /// A 32-byte vault sync key (`SyncKey`).
    public static let syncKey = KeyMode(1)
    /// A passphrase stretched with Argon2id (`Passphrase`).
    public static let passphrase = KeyMode(2)
    /// The vault's device keys (format 5, Specs/devices.md): a file key sealed for each
    /// recipient device.
    public static let deviceKeys = KeyMode(3)

    private static let known: ClosedRange<UInt8> = 1...3

    public init(from decoder: Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(UInt8.self)
        guard let mode = KeyMode(rawValue: raw) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "unknown key mode \(raw)")
            )
        }
        self = mode
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The secret as people name it.
    package var secretName: String {
        switch self {
        case .syncKey: "sync key"
        case .passphrase: "passphrase"
        default: "device key"
        }
    }

    public var description: String { secretName }
}
