import ArgumentParser
import TxLedger

/// A subcommand that works on the ledger named by the root's `--db`.
protocol LedgerCommand: AsyncParsableCommand {
    var root: TxLedgerCommand { get }
    func run(on ledger: Ledger) async throws
}

extension LedgerCommand {
    func run() async throws {
        try await run(on: Ledger.open(path: root.db ?? Ledger.defaultPath()))
    }
}
