import ArgumentParser
import TxLedger

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what a bundle is: its format and key mode; with its secret, its vault, origin and records.",
        discussion:
            "Without a secret only the header is read. With one, the whole bundle is authenticated and decoded; nothing is written."
    )

    @Argument(help: "The bundle file.") var file: String
    @OptionGroup var secretOptions: SecretOptions
    @Flag(help: "Print as JSON.") var json = false

    func run() throws {
        let info =
            if let secret = try secretOptions.secret(ask: false) {
                try BundleInfo(contentsOf: file, secret: secret, progress: ProgressLine.reporter())
            } else {
                try BundleInfo(contentsOf: file)
            }
        let output = BundleInfoOutput(path: file, info: info)
        print(json ? try JSONOutput.string(output) : output.text)
    }
}
