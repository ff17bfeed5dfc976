import Foundation
import TxLedger

/// Where `devices remove` and `devices rotate-recovery` write a vault's new recovery key: the
/// file given, else one beside the ledger named by the time (never replacing a file).
enum RecoveryKeyFile {
    static func write(_ key: SyncKey, to path: String?, root: TxLedgerCommand) throws {
        let ledger = root.db ?? Ledger.defaultPath()
        let file = path ?? "\(ledger).recovery-\(Date().millis).key"
        try key.write(toNewFile: file)
        print(
            "the vault's recovery secret was replaced: the new sync key is in \(OutsideText.escaped(file)) (mode 0600); "
                + "keep it somewhere safe, away from your devices; the former key or passphrase no longer approves devices"
        )
    }
}
