import TxLedger

/// What the command line adds to a library error: the command that helps (the library's
/// messages name no command, since an app shows them too).
enum ErrorHint {
    static func hint(for error: LedgerError) -> String? {
        switch error.code {
        case .notFound: "`txledger list` shows what it holds"
        case .unknownPeer: "`txledger peers` lists the ones it knows"
        case .unknownVault: "`txledger list` shows the vaults of its records"
        default: nil
        }
    }
}
