import ArgumentParser
import Foundation
import TxLedger

struct SyncCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync through a shared folder: read what other devices wrote there, write what they may lack.",
        discussion: """
            Every device of a vault runs `txledger sync` on the same folder (a cloud drive, a NAS, \
            a USB stick). Each writes only files of its own, with names that reveal nothing, and \
            reads the others' new files; a new device gets everything, a lost one holds nothing \
            back. Files it cannot use (conflict copies, uploads in progress, another secret's \
            files) are skipped with a warning. See Specs/folder-sync.md.
            """
    )

    @ParentCommand var root: TxLedgerCommand
    @Argument(help: "The shared folder.") var folder: String
    @OptionGroup var secretOptions: SecretOptions
    @Option(
        name: .customLong("vault"),
        help: "Sync only this vault (repeatable). Default: every vault of the ledger and of the folder."
    )
    var vaults: [String] = []
    @Flag(help: "Print the report as JSON (one object per sync).") var json = false
    @Flag(help: "Keep syncing, every --interval seconds, until interrupted (Ctrl-C).") var watch = false
    @Option(help: "Seconds between two syncs with --watch.") var interval = 5

    func validate() throws {
        guard interval >= 1 else { throw ValidationError("--interval must be at least 1 second") }
    }

    func run(on ledger: Ledger) async throws {
        let secret = try await secretOptions.secret(for: ledger, confirm: false)
        var first = true
        repeat {
            if !first { try await Task.sleep(for: .seconds(interval)) }
            let report = try await ledger.sync(folder: folder, secret: secret, vaults: vaults.isEmpty ? nil : vaults)
            StandardError.warn(
                report.skipped.map { "skipped \(OutsideText.escaped($0.name)): \($0.reason)" }
                    + (report.notWritten.map {
                        ["could not write to \(OutsideText.escaped(folder)) (\($0)); it was read"]
                    }
                        ?? [])
                    + report.vaults.sorted { $0.key < $1.key }.flatMap { vault, done in
                        (done.notWritten.map { ["wrote nothing of vault \(OutsideText.escaped(vault)): \($0)"] } ?? [])
                            + (done.removed
                                ? [
                                    "this device was removed from vault \(OutsideText.escaped(vault)): "
                                        + "the other devices set its writes aside"
                                ] : [])
                    }
                    + MergeReportText.peersDropped(report.peersDropped)
                    + (report.newReplicaID.map {
                        ["this ledger was restored or copied and took the new replica id \($0)"]
                    } ?? [])
            )
            if json {
                print(try JSONOutput.string(report))
            } else if first || !report.isQuiet {
                print(Self.text(report))
            }
            // A pipe or a file (a supervisor, a log collector) sees each sync as it happens.
            fflush(nil)
            first = false
        } while watch
    }

    static func text(_ report: FolderSyncReport) -> String {
        guard !report.vaults.isEmpty else { return "nothing to sync" }
        return report.vaults.sorted { $0.key < $1.key }.map { vault, done in
            "\(vault): read \(done.filesRead) file\(done.filesRead == 1 ? "" : "s") (added \(done.recordsAdded), changed \(done.recordsChanged)), "
                + "wrote \(done.filesWritten), removed \(done.filesRemoved)"
                + (done.writesSetAside > 0 ? "; set aside \(done.writesSetAside) writes of removed devices" : "")
                + (done.joined ? "; this device joined the vault with its recovery secret" : "")
                + ClearText.lines(done.clears).map { "\n" + $0 }.joined()
        }.joined(separator: "\n")
    }
}
