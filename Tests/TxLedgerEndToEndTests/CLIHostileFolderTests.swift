import Foundation
import SystemPackage
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerFolderSync
@testable import TxLedgerTestSupport

/// A sync folder and its entries are hostile input (issue #32, cases 3, 4 and 7;
/// Specs/folder-sync.md, "Hazards and what a sync says").
struct CLIHostileFolderTests {
    let devices: FolderDevices
    var directory: TemporaryDirectory { devices.directory }
    var key: String { devices.key }
    var folder: String { devices.folder }

    init() async throws {
        devices = try await FolderDevices()
    }

    func device(_ name: String) -> CLI { devices.device(name) }

    func sync(_ cli: CLI) async throws -> CLI.Result {
        try await cli.run(["sync", folder, "--key-file", key])
    }

    @Test func entriesThatAreNotRegularFilesAreSkippedWithAWarningAndNeverBlock() async throws {
        let a = device("a")
        try await a.run(CLI.send(1))
        #expect(try await sync(a).status == 0)
        let written = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first)
        let fifo = FolderFileName.random()
        let link = FolderFileName.random()
        let subfolder = FolderFileName.random()
        #expect(mkfifo(folder + "/" + fifo, 0o644) == 0)
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/" + link,
            withDestinationPath: folder + "/" + written
        )
        try FileManager.default.createDirectory(atPath: folder + "/" + subfolder, withIntermediateDirectories: false)
        let b = device("b")
        let result = try await sync(b)
        #expect(
            result.status == 0 && result.stdout.contains("read 1 file (added 1"),
            "\(result.stdout) \(result.stderr)"
        )
        for name in [fifo, link, subfolder] {
            #expect(result.stderr.contains("skipped \(name): not a regular file"), "\(name): \(result.stderr)")
        }
        // A FIFO given to import by name ends at once with a clear error.
        let imported = try await b.run(["import", folder + "/" + fifo, "--key-file", key])
        #expect(imported.status == 74 && imported.stderr.contains("not a regular file"), "\(imported.stderr)")
    }

    @Test func namesFromTheFolderAreEscapedInEveryMessage() async throws {
        let hostile = "txl-0123456789abcdef01234567 (1)\ntxledger: forged line\u{1B}[2J\u{202E}.txb"
        try Data("junk".utf8).write(to: URL(fileURLWithPath: folder + "/" + hostile))
        let result = try await sync(device("a"))
        #expect(result.status == 0)
        #expect(result.stderrLines.count == 1, "one warning, on one line: \(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{202E}"))
        #expect(result.stderr.contains(#"(1)\ntxledger: forged line\u{1B}[2J\u{202E}.txb"#), "\(result.stderr)")
    }

    /// A sync killed while it writes leaves its temporary file; the next sync of that device
    /// removes it, and another device's sync does not touch one being written.
    @Test func aSyncKilledWhileWritingLeavesNoPartialFileAfterTheNextSync() async throws {
        let a = device("a")
        let records = try (1...20_000).map { try Fixture.minimalSend(vault: "main", hash: $0) }
        try await Ledger.open(path: a.db, options: .init(logger: .quiet)).record(records)
        let folder = folder
        @Sendable func partials() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".partial") }
        }
        // Each attempt is the device's first sync into an empty folder, from the same copy of
        // its ledger, so that each writes the whole vault (a later sync would write a delta of
        // one record, which a loaded machine gives the kill no time to catch).
        let files = ["", "-wal", "-shm"].map { a.db + $0 }
        let pristine = files.map { $0 + ".pristine" }
        for (file, copy) in zip(files, pristine) where FileManager.default.fileExists(atPath: file) {
            try FileManager.default.copyItem(atPath: file, toPath: copy)
        }
        var killedWhileWriting = false
        for _ in 1...20 where !killedWhileWriting {
            for (file, copy) in zip(files, pristine) {
                try? FileManager.default.removeItem(atPath: file)
                guard FileManager.default.fileExists(atPath: copy) else { continue }
                try FileManager.default.copyItem(atPath: copy, toPath: file)
            }
            for entry in try FileManager.default.contentsOfDirectory(atPath: folder) {
                try FileManager.default.removeItem(atPath: folder + "/" + entry)
            }
            let outcome = try await KilledRun.run(
                a,
                ["sync", folder, "--key-file", key],
                killAt: .when { _ in !partials().isEmpty }
            )
            killedWhileWriting = outcome.killed && !partials().isEmpty
        }
        try #require(killedWhileWriting, "no run was killed while its file was being written")
        let next = try await sync(a)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(partials().isEmpty, "\(partials())")
    }

    /// `sync --watch` with its output in a file (a supervisor's log) writes each report as it
    /// happens, not when a buffer fills.
    @Test func watchWritesEachReportAsItHappens() async throws {
        let a = device("a")
        try await a.run(CLI.send(1))
        let log = directory.path("watch.log")
        let output = try FileDescriptor.open(
            log,
            .writeOnly,
            options: [.create, .truncate],
            permissions: .ownerReadWrite
        )
        defer { try? output.close() }
        let outcome = try await KilledRun.run(
            a,
            ["sync", folder, "--key-file", key, "--watch", "--interval", "1"],
            output: output,
            killAt: .when { _ in ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("main: read") }
        )
        #expect(outcome.killed, "it was stopped once its first report was in the file")
        #expect(
            try String(contentsOfFile: log, encoding: .utf8).hasPrefix(
                "main: read 0 files (added 0, changed 0), wrote 1"
            )
        )
    }

    /// While `sync --watch` runs with `--passphrase-env`, the passphrase is in memory once: in
    /// libsodium's guarded allocation, not also in a copy of the environment.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/mem")))
    func aWatchingSyncHoldsThePassphraseOnlyInWipedMemory() async throws {
        let a = device("a")
        try await a.run(CLI.send(1))
        let passphrase = "correct horse battery staple \(UUID().uuidString)"
        let copies = LockedValue<Int?>(nil)
        let folder = folder
        _ = try await KilledRun.run(
            a,
            ["sync", folder, "--passphrase-env", "TXL_TEST_PASSPHRASE", "--watch", "--interval", "1"],
            environment: ["TXL_TEST_PASSPHRASE": passphrase],
            killAt: .when { pid in
                // Once its first file is in the folder, the secret has been read and used.
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                guard names.contains(where: { FolderFileName.kind(of: $0) == .bundle }) else { return false }
                copies.set(ProcessMemory.occurrences(of: Array(passphrase.utf8), inProcess: pid))
                return true
            }
        )
        #expect(
            copies.get() == 1,
            "copies of the passphrase in the process's memory: \(String(describing: copies.get()))"
        )
    }
}
