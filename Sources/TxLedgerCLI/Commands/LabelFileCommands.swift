import ArgumentParser
import TxLedger

struct ExportLabelsCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-labels",
        abstract: "Write a vault's notes as a BIP-329 label file (for Sparrow, BTCPay...).",
        discussion: "JSON Lines; only transactions on Bitcoin-like chains have a BIP-329 form (Specs/labels.md)."
    )

    @ParentCommand var root: TxLedgerCommand
    @Option(help: "The vault to export.") var vault: String
    @Option(help: ArgumentHelp("The label file to write.", valueName: "file")) var out: String

    func run(on ledger: Ledger) async throws {
        let count = try await ledger.exportLabels(vault: vault, to: out)
        print("wrote \(count) label\(count == 1 ? "" : "s") to \(out)")
    }
}

struct ImportLabelsCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-labels",
        abstract: "Apply a BIP-329 label file's transaction labels as notes.",
        discussion:
            "A malformed file is refused whole and changes nothing; lines of what TxLedger does not store are ignored (Specs/labels.md)."
    )

    @ParentCommand var root: TxLedgerCommand
    @Argument(help: "The BIP-329 file (JSON Lines).") var file: String
    @Option(help: "The vault whose transactions it labels.") var vault: String
    @Flag(help: "Print the counts as JSON.") var json = false

    func run(on ledger: Ledger) async throws {
        let done = try await ledger.importLabels(from: file, vault: vault)
        if json {
            print(try JSONOutput.string(done))
        } else {
            print(
                "applied \(done.applied), unchanged \(done.unchanged), unmatched \(done.unmatched), ignored \(done.ignored)"
            )
        }
    }
}
