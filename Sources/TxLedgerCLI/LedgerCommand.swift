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

    func run() async throws {
        try await run(on: Ledger.open(path: root.db ?? Ledger.defaultPath(), options: ledgerOptions))
    }
}
