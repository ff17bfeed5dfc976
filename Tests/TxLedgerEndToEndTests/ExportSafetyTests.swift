import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// An export aimed at the ledger's own files (by mistake, or through a hard link) is refused
/// before anything is renamed over them, and the ledger keeps working with all it held.
struct ExportSafetyTests {
    @Test func exportsNeverReplaceTheLedgerOrItsSideFiles() async throws {
        let test = try await TestLedger()
        try await test.ledger.record(try HistoryFixture.records(count: 20))
        let before = try await test.ledger.all()
        let link = test.directory.path("looks-harmless.csv")
        try FileManager.default.linkItem(atPath: test.ledger.path, toPath: link)
        let targets = [test.ledger.path, test.ledger.path + "-wal", link]
        for target in targets where FileManager.default.fileExists(atPath: target) {
            await #expect(
                throws: LedgerError.output(
                    path: target,
                    reason: "it is this ledger's own database file; choose another path"
                )
            ) {
                try await test.ledger.exportCSV(HistoryFilter(), to: target)
            }
            await #expect(throws: BundleError.self) {
                try await test.ledger.exportBundle(
                    vault: "main",
                    to: target,
                    secret: .syncKey(SyncKey.generate()),
                    scope: .full
                )
            }
        }
        // A symbolic link is replaced itself; the ledger it pointed to is untouched.
        let symlink = test.directory.path("symlink.csv")
        try FileManager.default.createSymbolicLink(atPath: symlink, withDestinationPath: test.ledger.path)
        try await test.ledger.exportCSV(HistoryFilter(), to: symlink)
        #expect(try FileManager.default.attributesOfItem(atPath: symlink)[.type] as? FileAttributeType == .typeRegular)

        let reopened = try await test.reopened()
        #expect(try await reopened.all() == before)
        #expect(try await test.ledger.all() == before)
    }

    @Test func theCLISaysSoWithExitCode74() async throws {
        let test = try await TestLedger()
        try await test.ledger.record(try HistoryFixture.records(count: 5))
        let cli = CLI(db: test.ledger.path)
        let before = try await cli.history()
        let key = test.directory.path("k.key")
        try await cli.run(["keygen", "--out", key])
        for command in [
            ["export-csv", "--vault", "main", "--out", test.ledger.path],
            ["export", "--vault", "main", "--out", test.ledger.path, "--key-file", key],
        ] {
            let result = try await cli.run(command)
            #expect(result.status == 74, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("own database file") && result.stderrLines.count == 1)
        }
        #expect(try await cli.history() == before)
    }
}
