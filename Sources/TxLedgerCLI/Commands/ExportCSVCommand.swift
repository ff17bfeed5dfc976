import ArgumentParser
import TxLedger

struct ExportCSVCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-csv", abstract: "Write a vault's history as a tax-friendly CSV file.",
        discussion: """
            RFC 4180, oldest first, dates in ISO 8601 UTC; columns in Specs/queries.md. The file \
            appears only once complete; an existing one is replaced.
            """)

    @ParentCommand var root: TxLedgerCommand
    @Option(help: "The vault to export.") var vault: String
    @Option(help: ArgumentHelp("The CSV file to write.", valueName: "file")) var out: String
    @OptionGroup var filters: HistoryFilterOptions

    func run(on ledger: Ledger) async throws {
        let count = try await ledger.exportCSV(try filters.filter(vault: vault), to: out)
        print("wrote \(count) transaction\(count == 1 ? "" : "s") to \(out)")
    }
}
