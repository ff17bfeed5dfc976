import ArgumentParser
import Foundation
import TxLedger

struct MergeCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge every vault of another replica's ledger file into this one.",
        discussion:
            "The other file is opened read-only and never modified. The merge is one transaction; running it again changes nothing."
    )

    @ParentCommand var root: TxLedgerCommand
    @Argument(help: "The other replica's ledger file.") var other: String
    @Flag(help: "Print the merge report as JSON.") var json = false

    func run(on ledger: Ledger) async throws {
        let source = try await Ledger.open(path: other, options: .init(readOnly: true))
        guard source.replicaID != ledger.replicaID || source.path != ledger.path else {
            throw LedgerError.invalidInput(field: "merge", reason: "'\(other)' is this ledger itself")
        }
        var changeSets: [ChangeSet] = []
        for vault in try await source.vaults() {
            changeSets.append(try await source.changes(vault: vault))
        }
        let report = try await ledger.merge(changeSets)
        StandardError.warn(MergeReportText.warnings(report))
        if json {
            print(try JSONOutput.string(report))
        } else {
            print(MergeReportText.render(report))
        }
    }
}

struct ClearCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Clear a vault's history here and, through merges, on every replica; what is recorded later is kept."
    )

    @ParentCommand var root: TxLedgerCommand
    @Option(help: "The vault to clear.") var vault: String

    func run(on ledger: Ledger) async throws {
        let cleared = try await ledger.clearHistory(vault: vault)
        print("cleared \(cleared) records of vault \(vault)")
    }
}
