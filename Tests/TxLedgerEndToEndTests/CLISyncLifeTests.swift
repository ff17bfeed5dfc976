import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Sync through the command line with default exports, whatever happens to the devices:
/// a backup restored, a lost phone, a new device, a file copied to a second phone
/// (Specs/crdt.md, "Restored and cloned files" and "Deltas and peers").
struct CLISyncLifeTests {
    let directory: TemporaryDirectory
    let key: String

    init() async throws {
        directory = try TemporaryDirectory()
        key = directory.path("vault.key")
        try await CLI(db: directory.path("keygen.sqlite")).run(["keygen", "--out", key])
    }

    func device(_ name: String) -> CLI { CLI(db: directory.path("\(name).sqlite")) }

    /// Records sends `hashes` in vault main, in one process.
    func record(_ cli: CLI, _ hashes: ClosedRange<Int>) async throws {
        let records: [[String: Any]] = hashes.map { n in
            [
                "vaultId": "main", "kind": "send", "chain": "ethereum", "txHash": Fixture.evmHash(n),
                "toAddress": Fixture.evmAddress(2),
                "amount": "1", "token": ["symbol": "ETH"], "timestamp": "2026-01-01T00:00:00Z",
            ]
        }
        let result = try await cli.run(
            ["record", "--json", "-"],
            stdin: try JSONSerialization.data(withJSONObject: records)
        )
        try #require(result.status == 0, "\(result.stderr)")
    }

    /// `from` exports with the default scope and `to` imports; the import's result.
    @discardableResult
    func send(_ from: CLI, _ to: CLI) async throws -> CLI.Result {
        let bundle = directory.path("\(UUID().uuidString).txb")
        let exported = try await from.run(["export", "--vault", "main", "--out", bundle, "--key-file", key])
        try #require(exported.status == 0, "\(from.db): \(exported.stderr)")
        let imported = try await to.run(["import", bundle, "--key-file", key, "--json"])
        try #require(imported.status == 0, "\(imported.stderr)")
        return imported
    }

    func hashes(_ cli: CLI) async throws -> Set<String> {
        let listed = try await cli.run(["list", "--json", "--limit", "10000"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        return Set((object["items"] as? [[String: Any]] ?? []).compactMap { $0["txHash"] as? String })
    }

    func replica(_ cli: CLI) async throws -> String {
        String(try await cli.run(["init"]).stdout.split(separator: "\n")[1].dropFirst("replica ".count))
    }

    @Test func aRestoredBackupLosesNothing() async throws {
        let a = device("a")
        let p = device("p")
        try await record(a, 1...5)
        try await send(a, p)
        try await send(p, a)
        try FileManager.default.copyItem(atPath: a.db, toPath: directory.path("a-backup.sqlite"))
        try await record(a, 6...25)
        try await send(a, p)
        try await send(p, a)
        // The backup comes back in place of A's file; A goes on recording.
        try FileManager.default.removeItem(atPath: a.db)
        try FileManager.default.copyItem(atPath: directory.path("a-backup.sqlite"), toPath: a.db)
        try await record(a, 26...66)
        for _ in 0..<2 {
            try await send(p, a)
            try await send(a, p)
        }
        let all = Set((1...66).map { Fixture.evmHash($0) })
        #expect(try await hashes(p) == all)
        #expect(try await hashes(a) == all)
    }

    @Test func aLostDeviceStopsHoldingDeltasBackOnceForgotten() async throws {
        let a = device("a")
        let b = device("b")
        let c = device("c")
        try await record(a, 1...10)
        for peer in [b, c] {
            try await send(a, peer)
            try await send(peer, a)
            try await send(a, peer)
            try await send(peer, a)
        }
        #expect(try await hashes(c).count == 10)
        // C is lost. While A waits for it, its default export holds all it lacks.
        try await record(a, 11...40)
        try await send(a, b)
        try await send(b, a)
        let peers = try await a.run(["peers", "--json"]).stdout
        #expect(peers.contains("\"holdingBack\" : true"))
        let waiting = try await a.run([
            "export", "--vault", "main", "--out", directory.path("w.txb"), "--key-file", key,
        ])
        #expect(waiting.stdout.contains("records: 30"), "\(waiting.stdout)")

        let forgot = try await a.run(["forget", try await replica(c)])
        #expect(forgot.status == 0 && forgot.stdout.hasPrefix("forgot "), "\(forgot.stderr)")
        try await record(a, 41...45)
        let exported = try await a.run([
            "export", "--vault", "main", "--out", directory.path("f.txb"), "--key-file", key,
        ])
        #expect(exported.stdout.contains("records: 5"), "only what B lacks: \(exported.stdout)")

        // C comes back: it is told of the gap, says what it holds, and then gets the rest.
        let late = try await c.run(["import", directory.path("f.txb"), "--key-file", key])
        #expect(late.status == 0 && late.stderr.contains("missing here"), "\(late.stderr)")
        try await send(c, a)
        try await send(a, c)
        #expect(try await hashes(c) == Set((1...45).map { Fixture.evmHash($0) }))
    }

    @Test func aNewDeviceIsToldWhatItLacksAndGetsItAfterOneRoundTrip() async throws {
        let a = device("a")
        let b = device("b")
        let fresh = device("new")
        try await record(a, 1...8)
        try await send(a, b)
        try await send(b, a)
        try await record(a, 9...10)
        let first = try await send(a, fresh)
        #expect(
            first.stderr.contains("warning: this bundle holds replica") && first.stderr.contains("--full"),
            "\(first.stderr)"
        )
        #expect(first.stdout.contains("\"gaps\""))
        #expect(try await hashes(fresh).count == 2)
        try await send(fresh, a)
        let second = try await send(a, fresh)
        #expect(!second.stderr.contains("warning"), "\(second.stderr)")
        #expect(try await hashes(fresh) == Set((1...10).map { Fixture.evmHash($0) }))
    }

    @Test func aCopiedFileAndAThirdDeviceConverge() async throws {
        let a = device("a")
        let c = device("c")
        try await record(a, 1...3)
        try await send(a, c)
        try await send(c, a)
        let twin = device("twin")
        try FileManager.default.copyItem(atPath: a.db, toPath: twin.db)
        for round in 0..<3 {
            for (n, cli) in [a, twin, c].enumerated() {
                try await record(cli, (100 * (round + 1) + 10 * n)...(100 * (round + 1) + 10 * n + 1))
                try await cli.run(["note", Fixture.evmHash(1 + round % 3), "round \(round) from \(n)"])
            }
            try await send(a, c)
            try await send(twin, c)
            try await send(c, a)
            try await send(c, twin)
        }
        for _ in 0..<2 {
            for (from, to) in [(a, c), (twin, c), (c, a), (c, twin)] { try await send(from, to) }
        }
        let reference = try await c.history()
        #expect(try await a.history() == reference)
        #expect(try await twin.history() == reference)
        #expect(try await hashes(c).count == 3 + 3 * 3 * 2)
        #expect(try await replica(a) != replica(twin), "one copy took a new replica id")
    }

    /// A device on a newer version writes fields this one does not know; two devices on this
    /// version pass them on with default exports, editing the records meanwhile; what reaches
    /// the newer device again holds every one of its fields as it wrote them.
    @Test func aNewerVersionsFieldsSurviveATripThroughOlderDevices() async throws {
        let a = device("a")
        let b = device("b")
        let secret = BundleSecret.syncKey(try SyncKey(printable: try String(contentsOfFile: key, encoding: .utf8)))
        let origin = ReplicaID(rawValue: 0x0C)
        let stamp = Stamp(millis: 1_751_371_300_000, replica: origin)
        let written = try [Fixture.send(vault: "main", hash: 1), Fixture.swap(vault: "main", hash: 2)].map {
            try NewerVersion.extended(
                RecordState(recording: $0, stamp: stamp),
                registerStamp: Stamp(millis: 1_751_371_400_000, replica: origin)
            )
        }
        var encoder = PayloadEncoder()
        encoder.encode(
            ChangeSetHeader(
                vaultId: "main",
                origin: origin,
                since: 0,
                through: 1,
                knowledge: [:],
                lineage: [Epoch(id: EpochID(rawValue: 0x0C), firstSeq: 1)],
                clearedThrough: nil
            )
        )
        for state in written { encoder.encode(state) }
        let fromNewer = try await BundleFixture.seal(encoder.bytes, with: secret, in: directory)
        let imported = try await a.run(["import", fromNewer, "--key-file", key])
        try #require(imported.status == 0, "\(imported.stderr)")

        try await record(a, 3...4)
        try #require(try await a.run(["label", Fixture.evmHash(1), "rent"]).status == 0)
        try await send(a, b)
        try #require(
            try await b.run(["note", try Fixture.swap(vault: "main", hash: 2).id.rawValue, "swapped on the laptop"])
                .status == 0
        )
        try await send(b, a)
        try await send(a, b)
        let reference = try await b.history()
        #expect(try await a.history() == reference)
        #expect(try await hashes(b).count == 4)

        let back = directory.path("to-newer.txb")
        try #require(
            try await b.run(["export", "--vault", "main", "--out", back, "--key-file", key, "--full"]).status == 0
        )
        let received = try await BundleFixture.decode(back, secret: secret).records
        for state in written {
            let relayed = try #require(received.first { $0.id == state.id })
            #expect(relayed.newerFields == state.newerFields, "\(state.id)")
        }
    }
}
