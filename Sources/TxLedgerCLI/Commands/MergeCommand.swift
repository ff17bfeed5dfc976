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
        let report = try await ledger.merge(ledgerAt: other)
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
