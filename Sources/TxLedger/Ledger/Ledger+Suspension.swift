import TxLedgerStore

extension Ledger {
    /// Stops every ledger opened with `Options.sharedContainer` from using its database: an app
    /// whose ledger lives in an App Group container calls it when it moves to the background
    /// (`scenePhase == .background`, `applicationDidEnterBackground`). A transaction under way
    /// is interrupted and rolled back; until `resumeAll()`, reads and writes fail with
    /// `LedgerError.storage` instead of taking a lock iOS would kill the app for holding.
    public static func suspendAll() {
        LedgerDatabase.suspendAll()
    }

    /// Lets the ledgers that `suspendAll()` stopped use their databases again.
    public static func resumeAll() {
        LedgerDatabase.resumeAll()
    }
}
