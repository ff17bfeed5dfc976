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
            StandardError.warn(Self.warnings(report, folder: folder))
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

    /// What a person must know of a sync, for stderr: files skipped, a folder not written, per
    /// vault why nothing was written, a removal of this device, peers that do not read this
    /// device's files; peers dropped, a new replica id.
    static func warnings(_ report: FolderSyncReport, folder: String) -> [String] {
        var lines = report.skipped.map { "skipped \(OutsideText.escaped($0.name)): \($0.reason)" }
        if let reason = report.notWritten {
            lines.append("could not write to \(OutsideText.escaped(folder)) (\(reason)); it was read")
        }
        for (vault, done) in report.vaults.sorted(by: { $0.key < $1.key }) {
            let name = OutsideText.escaped(vault)
            if let reason = done.notWritten { lines.append("wrote nothing of vault \(name): \(reason)") }
            if done.removed {
                lines.append("this device was removed from vault \(name): the other devices set its writes aside")
            }
            for lag in done.notReadingOurFiles {
                lines.append(
                    "\(ClearText.device(lag.device, lag.replica)) keeps syncing vault \(name) "
                        + "but has not taken this device's files since \(ISO8601.string(from: lag.since)): "
                        + "it may run an older TxLedger, or be unable to read them (txledger peers)"
                )
            }
        }
        lines += MergeReportText.peersDropped(report.peersDropped)
        if let id = report.newReplicaID {
            lines.append("this ledger was restored or copied and took the new replica id \(id)")
        }
        return lines
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
