import ArgumentParser
import TxLedger

struct InitCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create the ledger file (or open an existing one) and print its path and replica id."
    )

    @ParentCommand var root: TxLedgerCommand

    func run(on ledger: Ledger) async throws {
        print("ledger \(ledger.path)")
        print("replica \(ledger.replicaID)")
    }
}
