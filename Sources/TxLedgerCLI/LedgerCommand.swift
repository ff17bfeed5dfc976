import ArgumentParser
import TxLedger

/// A subcommand that works on the ledger named by the root's `--db`.
protocol LedgerCommand: AsyncParsableCommand {
    var root: TxLedgerCommand { get }
    /// How the ledger is opened (the defaults, unless a command's options change them).
    var ledgerOptions: Ledger.Options { get }
    func run(on ledger: Ledger) async throws
}

extension LedgerCommand {
    var ledgerOptions: Ledger.Options { Ledger.Options() }

    /// The ledger's device key is kept beside it, in `PATH.device` (mode 0600), made by the
    /// first command that needs one (Specs/cli.md, "Devices").
    func run() async throws {
        let path = root.db ?? Ledger.defaultPath()
        var options = ledgerOptions
        if options.deviceKeys == nil { options.deviceKeys = FileDeviceKeyStore(path: path + ".device") }
        try await run(on: Ledger.open(path: path, options: options))
    }
}
