import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// The plaintext history is private on disk by default, whatever the umask (issue #32, case 6;
/// Specs/threat-model.md, "The device").
struct CLIPrivacyTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Runs txledger under umask 022, as a login shell usually does.
    func run(_ db: String, _ arguments: [String]) async throws -> ChildProcess.Result {
        try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"umask 022; exec "$0" "$@""#, CLI.binary.path, "--db", db] + arguments
        )
    }

    func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func theLedgerItsFolderAndPlaintextExportsAreOwnerOnly() async throws {
        let home = directory.path("new/data")
        let db = home + "/ledger.sqlite"
        #expect(try await run(db, CLI.send(1)).status == 0)
        #expect(try mode(home) == 0o700)
        #expect(try mode(db) == 0o600)
        // The side files exist while a process has the ledger open: looked at during a watch.
        let modes = LockedValue<[Int]>([])
        let keyFile = directory.path("vault.key")
        #expect(try await run(db, ["keygen", "--out", keyFile]).status == 0)
        try FileManager.default.createDirectory(atPath: directory.path("folder"), withIntermediateDirectories: false)
        let watch = try await KilledRun.run(
            CLI(db: db),
            ["sync", directory.path("folder"), "--key-file", keyFile, "--watch"],
            killAt: .when { _ in
                let found = ["-wal", "-shm"].compactMap {
                    (try? FileManager.default.attributesOfItem(atPath: db + $0))?[.posixPermissions] as? Int
                }
                modes.set(found)
                return found.count == 2
            }
        )
        #expect(watch.killed && modes.get() == [0o600, 0o600], "\(modes.get())")
        let csv = directory.path("history.csv")
        #expect(try await run(db, ["export-csv", "--vault", "main", "--out", csv]).status == 0)
        #expect(try mode(csv) == 0o600)
        let labels = directory.path("labels.jsonl")
        #expect(try await run(db, ["export-labels", "--vault", "main", "--out", labels]).status == 0)
        #expect(try mode(labels) == 0o600)
    }

    @Test func aPassphraseFileOthersCanReadIsWarnedAbout() async throws {
        let db = directory.path("a.sqlite")
        #expect(try await run(db, CLI.send(1)).status == 0)
        let file = try directory.privateFile("passphrase.txt", "a long enough passphrase\n")
        let quiet = try await run(
            db,
            [
                "export", "--vault", "main", "--out", directory.path("a.txb"), "--passphrase-file", file, "--kdf",
                "interactive",
            ]
        )
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(String(decoding: quiet.stderr, as: UTF8.self))")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let warned = try await run(
            db,
            [
                "export", "--vault", "main", "--out", directory.path("b.txb"), "--passphrase-file", file, "--kdf",
                "interactive",
            ]
        )
        let stderr = String(decoding: warned.stderr, as: UTF8.self)
        #expect(
            warned.status == 0
                && stderr.contains("warning: passphrase file '\(file)' can be read by other users; run chmod 600"),
            "\(stderr)"
        )
        #expect(!stderr.contains("a long enough passphrase"))
    }
}
