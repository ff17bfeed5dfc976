/// Which kind of secret seals a bundle (the header's key mode byte).
public enum KeyMode: UInt8, Sendable, Codable {
    /// A 32-byte vault sync key (`SyncKey`).
    case syncKey = 1
    /// A passphrase stretched with Argon2id (`Passphrase`).
    case passphrase = 2

    var secretName: String {
        switch self {
        case .syncKey: "sync key"
        case .passphrase: "passphrase"
        }
    }
}
