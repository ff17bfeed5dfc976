import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// `txledger merge` and `clear` on real files, as issue #3 asks.
struct CLIMergeTests {
    let directory: TemporaryDirectory
    let a: CLI
    let b: CLI

    init() throws {
        directory = try TemporaryDirectory()
        a = CLI(db: directory.path("a.sqlite"))
        b = CLI(db: directory.path("b.sqlite"))
    }

    @Test func aConflictsValuesArePrintedEscapedOnTheirLine() async throws {
        // Notes may hold line breaks; a conflict's line shows them escaped, so a note cannot
        // write lines of its own into the report.
        try await a.run(CLI.send(1))
        try await b.run(CLI.send(1))
        try await a.run(["note", Fixture.evmHash(1), "mine"])
        try await b.run(["note", Fixture.evmHash(1), "first line\nconflict forged"])
        let merged = try await a.run(["merge", b.db])
        #expect(merged.status == 0, "\(merged.stderr)")
        let lines = merged.stdout.split(separator: "\n")
        #expect(lines.contains { $0.contains(#"note: kept "first line\nconflict forged" (theirs) over "mine""#) })
        #expect(!lines.contains { $0.hasPrefix("conflict forged") })
    }

    @Test func conflictingEditsMergeBothWaysToTheSameHistory() async throws {
        try await a.run(CLI.send(1))
        try await b.run(CLI.send(1))
        try await b.run(CLI.send(2))
        try await a.run(["status", Fixture.evmHash(1), "confirmed"])
        try await b.run(["status", Fixture.evmHash(1), "failed", "--reason", "reverted"])
        try await a.run(["note", Fixture.evmHash(1), "paid rent"])
        try await b.run(["label", Fixture.evmHash(1), "tax"])

        let bBytes = try Data(contentsOf: URL(fileURLWithPath: b.db))
        let intoA = try await a.run(["merge", b.db])
        #expect(intoA.status == 0, "\(intoA.stderr)")
        #expect(intoA.stdout.hasPrefix("added 1, changed 1, unchanged 0, cleared 0"))
        #expect(intoA.stdout.contains("conflict \(try Fixture.minimalSend(vault: "main", hash: 1).id) status: kept"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: b.db)) == bBytes)  // the source is never modified

        let intoB = try await b.run(["merge", a.db, "--json"])
        let report = try JSONDecoder().decode(MergeReport.self, from: Data(intoB.stdout.utf8))
        #expect(report.recordsChanged == 1 && report.recordsAdded == 0)

        let history = try await a.history()
        #expect(try await b.history() == history)
        #expect(history.contains("\"note\" : \"paid rent\"") && history.contains("\"tax\""))

        let again = try await a.run(["merge", b.db])
        #expect(again.stdout.hasPrefix("added 0, changed 0, unchanged 2, cleared 0 (nothing changed)"))
        #expect(try await a.history() == history)
    }

    @Test func aClearTravelsThroughMerge() async throws {
        try await a.run(CLI.send(1))
        try await b.run(["merge", a.db])
        #expect(try await a.run(["clear", "--vault", "main"]).stdout == "cleared 1 records of vault main\n")
        try await b.run(CLI.send(2))  // recorded after the clear
        #expect(try await b.run(["merge", a.db]).stdout.hasPrefix("added 0, changed 0, unchanged 0, cleared 1"))
        try await a.run(["merge", b.db])
        let history = try await a.history()
        #expect(try await b.history() == history)
        #expect(history.contains(Fixture.evmHash(2)) && !history.contains(Fixture.evmHash(1)))
    }

    @Test func badMergeSourcesAreRefusedAndChangeNothing() async throws {
        try await a.run(CLI.send(1))
        let before = try await a.history()
        let garbage = directory.path("garbage.sqlite")
        try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: garbage))
        for (source, exit, text) in [
            (garbage, Int32(74), "it is not a SQLite database"),
            (directory.path("missing.sqlite"), 74, "the file does not exist"),
            (a.db, 65, "is this ledger itself"),
        ] {
            let result = try await a.run(["merge", source])
            #expect(result.status == exit, "\(result.stderr)")
            #expect(result.stderrLines.count == 1 && result.stderr.contains(text), "\(result.stderr)")
        }
        #expect(try await a.history() == before)
    }

    @Test func clearingAnInvalidVaultNameIsRefused() async throws {
        try await a.run(CLI.send(1))
        for name in ["", "bad\nname"] {
            let result = try await a.run(["clear", "--vault", name])
            #expect(result.status == 65 && result.stderr.contains("invalid vault"), "\(result.stderr)")
        }
        #expect(try await a.run(["list", "--json"]).stdout.contains(Fixture.evmHash(1)))
    }
}
