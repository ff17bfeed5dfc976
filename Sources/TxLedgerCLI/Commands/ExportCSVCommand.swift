import ArgumentParser
import TxLedger

extension CSVFormat: ExpressibleByArgument {}

struct ExportCSVCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-csv",
        abstract: "Write a vault's history as a CSV file: every field, or a tax tool's import format.",
        discussion: """
            RFC 4180, oldest first; columns in Specs/queries.md. --format koinly writes Koinly's \
            universal template, --format cointracker CoinTracker's import format. The file \
            appears only once complete; an existing one is replaced.
            """
    )

    @ParentCommand var root: TxLedgerCommand
    @Option(help: "The vault to export.") var vault: String
    @Option(help: ArgumentHelp("The CSV file to write.", valueName: "file")) var out: String
    @Option(help: "txledger (every field, the default), koinly or cointracker.") var format: CSVFormat = .txledger
    @OptionGroup var filters: HistoryFilterOptions

    func run(on ledger: Ledger) async throws {
        let count = try await ledger.exportCSV(try filters.filter(vault: vault), to: out, format: format)
        print("wrote \(count) transaction\(count == 1 ? "" : "s") to \(out)")
    }
}
