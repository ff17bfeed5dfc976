import TxLedgerCore

/// What seals or opens a bundle: a vault sync key, or a passphrase.
public enum BundleSecret: Sendable {
    case syncKey(SyncKey)
    case passphrase(Passphrase)

    var mode: KeyMode {
        switch self {
        case .syncKey: .syncKey
        case .passphrase: .passphrase
        }
    }
}
