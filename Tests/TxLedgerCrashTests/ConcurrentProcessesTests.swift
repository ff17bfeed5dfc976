import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Several `txledger` processes on one ledger file at once, as an app and its extension are:
/// two recording (one also writing notes), one importing large bundles, one refreshing against
/// a chain endpoint. None may fail, none may report a locked database, and the final ledger
/// must be the merge of what each did.
struct ConcurrentProcessesTests {
    let folder: TemporaryDirectory
    let cli: CLI

    init() throws {
        folder = try TemporaryDirectory()
        cli = CLI(db: folder.path("shared.sqlite"))
    }

    @Test func processesThatCreateTheLedgerAtOnceAllSucceed() async throws {
        let results = try await withThrowingTaskGroup(of: [CLI.Result].self) { group in
            for process in 0..<4 {
                group.addTask {
                    var done: [CLI.Result] = []
                    for n in 1...5 { done.append(try await cli.run(CLI.send(n) + ["--vault", "v\(process)"])) }
                    return done
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        for result in results { #expect(result.status == 0, "\(result.stderr)") }
        let ledger = try await Ledger.open(path: cli.db, options: .init(logger: .quiet))
        #expect(try await ledger.vaults().sorted() == ["v0", "v1", "v2", "v3"])
        #expect(try await ledger.all().count == 20)
    }

    @Test func recordingImportingAndRefreshingAtOnceLoseNothing() async throws {
        // Before: transactions to refresh, and two bundles from other replicas.
        let watched = try (1...10).map { try Fixture.minimalSend(vault: "watched", hash: $0) }
        try await Ledger.open(path: cli.db, options: .init(logger: .quiet)).record(watched)
        let key = folder.path("vault.key")
        try await cli.run(["keygen", "--out", key])
        let keySecret = BundleSecret.syncKey(try SyncKey(contentsOfFile: key))
        var bundles: [String] = []
        var imported: [TransactionRecord] = []
        for (vault, count) in [("vault-1", 1500), ("vault-2", 300)] {
            let other = try await TestLedger()
            let records = try (1...count).map { try Fixture.minimalSend(vault: vault, hash: $0) }
            try await other.ledger.record(records)
            bundles.append(folder.path("\(vault).txb"))
            try await other.ledger.exportBundle(vault: vault, to: bundles.last!, secret: keySecret)
            imported += records
        }
        let rpc = try await ChainServer.start { request in
            guard request.rpcMethod == "eth_getTransactionReceipt", let hash = request.rpcParams.first?.string else {
                return .rpcResult(ChainResponses.block)
            }
            return .rpcResult(ChainResponses.receipt(hash, status: "0x1"))
        }

        func send(_ n: Int) -> [String] {
            [
                "record", "send", "--vault", "main", "--chain", "ethereum", "--hash", Fixture.evmHash(100_000 + n),
                "--to", Fixture.evmAddress(2),
                "--amount", "1.5", "--token", "ETH", "--at", "2025-07-01T00:00:00Z",
            ]
        }
        let actors: [[[String]]] = [
            (1...12).map(send),
            (13...24).flatMap { [send($0), ["note", Fixture.evmHash(100_000 + $0), "note \($0)"]] },
            bundles.map { ["import", $0, "--key-file", key] },
            (1...4).map { _ in
                [
                    "refresh", "--vault", "watched", "--timeout", String(Int(TestLimits.hang)), "--endpoint",
                    "eth=\(rpc.url.absoluteString)",
                ]
            },
        ]
        let results = try await withThrowingTaskGroup(of: [(arguments: [String], result: CLI.Result)].self) { group in
            for commands in actors {
                group.addTask {
                    var done: [(arguments: [String], result: CLI.Result)] = []
                    for arguments in commands { done.append((arguments, try await cli.run(arguments))) }
                    return done
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        await rpc.stop()

        #expect(results.count == actors.map(\.count).reduce(0, +))
        for (arguments, result) in results {
            #expect(result.status == 0, "\(arguments.prefix(2)): \(result.stderr)")
            #expect(!result.stderr.contains("locked") && !result.stderr.contains("busy"), "\(result.stderr)")
        }

        // After: exactly the merge of what each did.
        let ledger = try await Ledger.open(path: cli.db, options: .init(logger: .quiet))
        let integrity = try await ledger.database.pool.read { db in
            try String.fetchAll(db, sql: "PRAGMA integrity_check")
        }
        #expect(integrity == ["ok"])
        struct Entry: Hashable {
            let vault: String, hash: String?, status: TransactionStatus, note: String?
        }
        var expected = Set<Entry>()
        for n in 1...24 {
            expected.insert(
                Entry(
                    vault: "main",
                    hash: Fixture.evmHash(100_000 + n),
                    status: .broadcasted,
                    note: n > 12 ? "note \(n)" : nil
                )
            )
        }
        for record in watched {
            expected.insert(Entry(vault: "watched", hash: record.facts.txHash, status: .confirmed, note: nil))
        }
        for record in imported {
            expected.insert(
                Entry(vault: record.facts.vaultId, hash: record.facts.txHash, status: record.status, note: record.note)
            )
        }
        let actual = try await ledger.all().map {
            Entry(vault: $0.facts.vaultId, hash: $0.facts.txHash, status: $0.status, note: $0.note)
        }
        #expect(actual.count == expected.count)
        #expect(Set(actual) == expected, "\(Set(actual).symmetricDifference(expected).prefix(5))")
    }
}
