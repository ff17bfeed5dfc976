import ArgumentParser
import TxLedger

struct ImportCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Merge an encrypted bundle into this ledger.",
        discussion:
            "One pass, one transaction: each chunk is authenticated as it is read and each record merged as it is decoded; the transaction commits only once the whole bundle has authenticated, and a bundle that fails any check leaves the ledger as it was. Importing it again changes nothing."
    )

    @ParentCommand var root: TxLedgerCommand
    @Argument(help: "The bundle file.") var file: String
    @OptionGroup var secretOptions: SecretOptions
    @Flag(help: "Print the bundle and the merge report as JSON.") var json = false

    func run(on ledger: Ledger) async throws {
        let secret = try await secretOptions.secret(for: ledger, confirm: false)
        let result = try await ledger.importBundle(at: file, secret: secret, progress: ProgressLine.reporter())
        StandardError.warn(MergeReportText.warnings(result.report))
        let bundle = BundleInfoOutput(path: file, info: result.info)
        if json {
            print(try JSONOutput.string(ImportOutput(bundle: bundle, report: result.report)))
        } else {
            print(bundle.text)
            print(MergeReportText.render(result.report))
        }
    }

    private struct ImportOutput: Encodable {
        let bundle: BundleInfoOutput
        let report: MergeReport
    }
}
