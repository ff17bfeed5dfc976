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
            RefreshCommand.self, MergeCommand.self, ClearCommand.self,
            KeygenCommand.self, ExportCommand.self, ImportCommand.self, InspectCommand.self, PeersCommand.self,
            ForgetCommand.self,
            SyncCommand.self, ExportLabelsCommand.self, ImportLabelsCommand.self,
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
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel =
                ProcessInfo.processInfo.environment["TXLEDGER_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
            return handler
        }
        do {
            var command = try parseAsRoot()
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

    private static func fail(_ error: LocalizedError, hint: String? = nil, code: Int32) -> Never {
        let message = (error.errorDescription ?? "\(error)") + (hint.map { "; " + $0 } ?? "")
        FileHandle.standardError.write(Data("txledger: \(message)\n".utf8))
        Foundation.exit(code)
    }
}
