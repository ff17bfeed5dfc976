import Foundation
import GRDB
import PropertyBased
import Testing

@testable import TxLedger
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

/// `txledger merge FILE` with a FILE made by someone hostile (issue #32, cases 2 and 5;
/// Specs/threat-model.md, "Another replica's ledger file"): each ends in an error that names
/// FILE, and this ledger is left as it was.
struct CLIHostileLedgerFileTests {
    let directory: TemporaryDirectory
    let a: CLI

    init() throws {
        directory = try TemporaryDirectory()
        a = CLI(db: directory.path("a.sqlite"))
    }

    /// A valid ledger file of another replica, with two records, ready to be made hostile.
    func otherLedger(_ name: String) async throws -> String {
        let path = directory.path(name)
        let other = CLI(db: path)
        try await other.run(CLI.send(2))
        try await other.run(CLI.send(3))
        return path
    }

    /// Edits `path` with SQLite as its owner could (what the sqlite3 shell does).
    func edit(_ path: String, _ sql: (Database) throws -> Void) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.writeWithoutTransaction { db in try sql(db) }
        try queue.close()
    }

    /// Merges `source` into A and checks that it failed with `exit`, on one line naming the
    /// file with `text`, and that A is unchanged.
    func expectRefused(
        _ source: String,
        exit: Int32 = 74,
        _ text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = try await a.history()
        let result = try await a.run(["merge", source])
        #expect(result.status == exit, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderrLines.count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(text), "\(result.stderr)", sourceLocation: sourceLocation)
        if exit == 74 {
            #expect(
                result.stderr.contains("'\(source)'"),
                "names the file: \(result.stderr)",
                sourceLocation: sourceLocation
            )
            #expect(
                !result.stderr.contains("'\(a.db)'"),
                "blames this ledger: \(result.stderr)",
                sourceLocation: sourceLocation
            )
        }
        #expect(try await a.history() == before, sourceLocation: sourceLocation)
        // Again, watched: it ends by itself, under 200 MB at its peak (Linux's VmHWM, read as
        // it runs; a run that ends before a first read had no time to grow that much).
        let watched = try await KilledRun.run(a, ["merge", source], killAt: .never)
        #expect(!watched.killed && watched.status == exit, sourceLocation: sourceLocation)
        #expect(
            watched.peakResident < 200 << 20,
            "peak \(watched.peakResident >> 20) MB",
            sourceLocation: sourceLocation
        )
    }

    /// Each table a merge reads, replaced by a view that never ends (a recursive CTE), and a
    /// trigger added to an intact file: refused by the schema check before anything is read.
    @Test func viewsTriggersAndUnknownObjectsAreRefusedBeforeAnythingIsRead() async throws {
        try await a.run(CLI.send(1))
        for table in ["record", "vault", "frame_text", "frame_replica", "epoch", "peer", "grdb_migrations"] {
            let path = try await otherLedger("view-\(table).sqlite")
            try edit(path) { db in
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }
                try db.execute(sql: "DROP TABLE \(table)")
                try db.execute(
                    sql: """
                        CREATE VIEW \(table) (\(columns.joined(separator: ", "))) AS
                        WITH RECURSIVE endless(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM endless)
                        SELECT \(columns.map { _ in "n" }.joined(separator: ", ")) FROM endless
                        """
                )
            }
            try await expectRefused(
                path,
                table == "grdb_migrations" ? "not a TxLedger ledger" : "its schema is not the one TxLedger makes"
            )
        }
        let triggered = try await otherLedger("trigger.sqlite")
        try edit(triggered) { db in
            try db.execute(sql: "CREATE TRIGGER t AFTER INSERT ON chain BEGIN SELECT 1; END")
        }
        try await expectRefused(triggered, "trigger 't'")
    }

    /// Values longer than any ledger holds (a vault name, a record's state) end at SQLite's
    /// length limit, without being loaded.
    @Test func valuesLongerThanAnyLedgersAreRefusedWithoutBeingLoaded() async throws {
        try await a.run(CLI.send(1))
        let long = OtherLedgerFile.maxValueBytes + 1
        let vault = try await otherLedger("vault.sqlite")
        try edit(vault) { db in
            try db.execute(sql: "UPDATE vault SET id = id || CAST(zeroblob(?) AS TEXT)", arguments: [long])
        }
        try await expectRefused(vault, "a value longer than any ledger's")
        // 300 MB in one state: without the limit a merge would load it (and more than 200 MB).
        let state = try await otherLedger("state.sqlite")
        try edit(state) { db in
            try db.execute(sql: "UPDATE record SET state = zeroblob(?) WHERE num = 1", arguments: [300_000_000])
        }
        try await expectRefused(state, "a value longer than any ledger's")
    }

    @Test func filesThatAreNotLedgersAreNamedWithTheRightHint() async throws {
        try await a.run(CLI.send(1))
        let empty = directory.path("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: empty, contents: nil))
        try await expectRefused(empty, "it is empty, not a TxLedger ledger")
        try await expectRefused("/dev/zero", "it is not a regular file")
        let fifo = directory.path("fifo.sqlite")
        #expect(mkfifo(fifo, 0o600) == 0)
        try await expectRefused(fifo, "it is not a regular file")
        try await expectRefused(directory.url.path, "it is not a regular file")

        // Damaged pages: the other file is named as damaged, not this ledger.
        let damaged = directory.path("damaged.sqlite")
        _ = try await Fixture.ledgerWithCorruptPages(at: damaged)
        try await expectRefused(damaged, "it is damaged")
    }

    @Test func thisLedgerUnderAnotherNameIsRefused() async throws {
        try await a.run(CLI.send(1))
        let dotted = directory.url.path + "/./a.sqlite"
        try await expectRefused(dotted, exit: 65, "is this ledger itself")
        let link = directory.path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: a.db)
        try await expectRefused(link, exit: 65, "is this ledger itself")
        let hardLink = directory.path("hard.sqlite")
        try FileManager.default.linkItem(atPath: a.db, toPath: hardLink)
        try await expectRefused(hardLink, exit: 65, "is this ledger itself")
    }

    /// The checks refuse nothing that TxLedger wrote: a file upgraded from schema v7 merges.
    @Test func aLedgerUpgradedFromAnOlderVersionStillMerges() async throws {
        let upgraded = directory.path("v7.sqlite")
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/ledger-v7/ledger.sqlite")
        try FileManager.default.copyItem(atPath: fixture.path, toPath: upgraded)
        #expect(try await CLI(db: upgraded).run(["list", "--json"]).status == 0)
        let merged = try await a.run(["merge", upgraded])
        #expect(merged.status == 0 && merged.stdout.hasPrefix("added "), "\(merged.stderr)")
    }
}
