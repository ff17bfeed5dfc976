import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerTestSupport

/// A ledger that claims to know tens of thousands of replicas cannot cut the user's other
/// devices off (issue #32, case 1; Specs/crdt.md, "Limits of knowledge").
struct CLIKnowledgeLimitTests {
    let devices: FolderDevices
    var directory: TemporaryDirectory { devices.directory }
    var key: String { devices.key }
    var folder: String { devices.folder }

    init() async throws {
        devices = try await FolderDevices()
    }

    func device(_ name: String) -> CLI { devices.device(name) }

    @discardableResult
    func sync(_ cli: CLI) async throws -> CLI.Result {
        try await devices.sync(cli)
    }

    /// Edits `cli`'s file as a hostile owner would, with sqlite3: `count` replicas it says it
    /// knows in vault `main`, heard from now.
    func poison(_ cli: CLI, count: Int) throws {
        let queue = try DatabaseQueue(path: cli.db)
        try queue.write { db in
            let insert = try db.makeStatement(
                sql:
                    "INSERT INTO peer (vault_id, replica_id, have_seq, acked_seq, heard_at_ms) VALUES ('main', ?, 5, 0, ?)"
            )
            let now = Date().millis
            for n in 1...count { try insert.execute(arguments: [Int64(n) << 8, now]) }
        }
        try queue.close()
    }

    func peerCount(_ cli: CLI) async throws -> Int {
        let listed = try await cli.run(["peers", "--json"])
        let peers = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [Any])
        return peers.count
    }

    @Test func aPoisonedLedgerHealsAndEveryDeviceKeepsSyncing() async throws {
        let (poisoned, a, b) = (device("poisoned"), device("a"), device("b"))
        try await poisoned.run(CLI.send(1))
        try poison(poisoned, count: 65_535)
        // The poisoned device's sync drops what it may not keep, says so, and writes a file
        // that every reader accepts.
        let healing = try await sync(poisoned)
        #expect(healing.stderr.contains("dropped 65279 peers of vault main"), "\(healing.stderr)")
        #expect(try await peerCount(poisoned) == Ledger.maxPeersPerVault)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first)
        let inspected = try await a.run(["inspect", folder + "/" + name, "--key-file", key, "--json"])
        #expect(inspected.status == 0, "\(inspected.stderr)")

        // A reads it, and what A writes afterwards B reads; and the other way round.
        try await a.run(CLI.send(2))
        try await sync(a)
        #expect(try await peerCount(a) <= Ledger.maxPeersPerVault)
        try await b.run(CLI.send(3))
        let bRead = try await sync(b)
        #expect(!bRead.stderr.contains("skipped"), "\(bRead.stderr)")
        try await sync(a)
        try await sync(poisoned)
        for cli in [poisoned, a, b] {
            let listed = try await cli.run(["list", "--json"]).stdout
            for n in 1...3 { #expect(listed.contains(Fixture.evmHash(n)), "\(cli.db) lacks \(n)") }
        }
    }

    /// `merge FILE` needs no key: a poisoned file merged teaches at most the limit, and what the
    /// merging ledger writes next is read by the others.
    @Test func aPoisonedFileMergedTeachesAtMostTheLimit() async throws {
        let (poisoned, a, b) = (device("poisoned"), device("a"), device("b"))
        try await poisoned.run(CLI.send(1))
        try poison(poisoned, count: 70_000)
        let merged = try await a.run(["merge", poisoned.db])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try await peerCount(a) <= Ledger.maxPeersPerVault)
        try await sync(a)
        let bRead = try await sync(b)
        #expect(
            !bRead.stderr.contains("skipped") && bRead.stdout.contains("added 1"),
            "\(bRead.stdout) \(bRead.stderr)"
        )
    }

    @Test func forgetRemovesThePeerItNames() async throws {
        let (a, b) = (device("a"), device("b"))
        try await a.run(CLI.send(1))
        // B has a record of its own, so it writes a file (a device with nothing new writes none).
        try await b.run(CLI.send(2))
        try await sync(a)
        try await sync(b)
        try await sync(a)
        let replica = try #require(
            try await b.run(["init"]).stdout.split(separator: "\n").first { $0.hasPrefix("replica ") }?.dropFirst(8)
        )
        #expect(try await a.run(["peers"]).stdout.contains(replica))
        let forgot = try await a.run(["forget", String(replica)])
        #expect(forgot.status == 0, "\(forgot.stderr)")
        #expect(!(try await a.run(["peers"]).stdout.contains(replica)))
    }
}
