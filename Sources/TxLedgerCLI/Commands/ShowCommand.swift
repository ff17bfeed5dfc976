import ArgumentParser
import TxLedger

struct ShowCommand: LedgerCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one transaction.")

    @ParentCommand var root: TxLedgerCommand
    @Argument(help: "Record id or transaction hash.") var idOrHash: String
    @Flag(help: "Print JSON.") var json = false

    func run(on ledger: Ledger) async throws {
        let record = try await ledger.resolve(idOrHash)
        print(json ? try JSONOutput.string(record) : RecordDetail.lines(record), terminator: json ? "\n" : "")
    }
}
