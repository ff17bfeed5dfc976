import ArgumentParser
import Foundation
import Logging
import TxLedger

@main
struct TxLedgerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "txledger",
        abstract: "A local, replicated transaction history for crypto wallets.",
        discussion: """
            Exit codes: 0 success, 64 usage, 65 invalid input, 66 not found, 74 ledger or file I/O failed, \
            76 bundle tampered or truncated, 77 wrong key or passphrase, 78 not a bundle or unsupported version. See Specs/cli.md.
            """,
        version: "0.1.0",
        subcommands: [
            InitCommand.self, RecordCommand.self, StatusCommand.self, NoteCommand.self, LabelCommand.self,
            HideCommand.self, UnhideCommand.self, ListCommand.self, ShowCommand.self, ExportCSVCommand.self,
            RefreshCommand.self, MergeCommand.self, ClearCommand.self, ClearedCommand.self, RestoreCommand.self,
            KeygenCommand.self, ExportCommand.self, ImportCommand.self, InspectCommand.self, PeersCommand.self,
            ForgetCommand.self,
            SyncCommand.self, DevicesCommand.self, ExportLabelsCommand.self, ImportLabelsCommand.self,
        ]
    )

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Ledger file. Default: $TXLEDGER_DB, else the platform's data folder.",
            valueName: "path"
        )
    )
    var db: String?

    static func main() async {
        // getenv, not ProcessInfo's environment, which copies every variable (a passphrase
        // among them, before `--passphrase-env` wipes it) into memory that is never wiped.
        let logLevel = getenv("TXLEDGER_LOG").flatMap { Logger.Level(rawValue: String(cString: $0)) } ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = logLevel
            return handler
        }
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if let unknown = unknownSubcommand(in: arguments) {
                // ArgumentParser answers `txledger nosuch --help` with the root's help and exit 0.
                throw ValidationError("unknown command '\(OutsideText.escaped(unknown))'; `txledger --help` lists them")
            }
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as LedgerError {
            fail(error, hint: ErrorHint.hint(for: error), code: ExitStatus.code(for: error))
        } catch let error as BundleError {
            fail(error, code: ExitStatus.code(for: error))
        } catch {
            exit(withError: error)
        }
    }

    /// The first word of `arguments` that is neither a root option (or its value) nor the name
    /// of a subcommand, if any.
    static func unknownSubcommand(in arguments: [String]) -> String? {
        var words = arguments[...]
        while let word = words.popFirst() {
            if word == "--db" {
                _ = words.popFirst()
            } else if !word.hasPrefix("-") {
                let names = configuration.subcommands.map { $0._commandName } + ["help"]
                return names.contains(word) ? nil : word
            }
        }
        return nil
    }

    private static func fail(_ error: LocalizedError, hint: String? = nil, code: Int32) -> Never {
        let message = (error.errorDescription ?? "\(error)") + (hint.map { "; " + $0 } ?? "")
        FileHandle.standardError.write(Data("txledger: \(message)\n".utf8))
        Foundation.exit(code)
    }
}
