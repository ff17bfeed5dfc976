import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// A bundle imported, or a ledger file merged, into a ledger that holds no record is written in
/// SQLite's rollback-journal mode while nothing else has the file open (`LedgerDatabase.writeIntoEmpty`, Specs/schema.md,
/// "Database"): its pages go once into the file, none through the WAL, and the file is in WAL
/// mode again afterwards. With a record held, or another connection open, the WAL is kept.
struct EmptyLedgerLoadTests {
    let source: TestLedger
    let bundle: String
    let secret = BundleSecret.syncKey(.generate())

    init() async throws {
        source = try await TestLedger()
        try await source.ledger.record(try HistoryFixture.records(count: 400))
        bundle = source.directory.path("main.txb")
        try await source.ledger.exportBundle(vault: "main", to: bundle, secret: secret, scope: .full)
    }

    /// The bytes of `ledger`'s `-wal` file (0 if there is none), its `-journal` file's
    /// existence, and its journal mode.
    private func sideFiles(_ ledger: Ledger) async throws -> (wal: Int, journal: Bool, mode: String?) {
        let attributes = try? FileManager.default.attributesOfItem(atPath: ledger.path + "-wal")
        let mode = try await ledger.database.pool.read { db in
            try String.fetchOne(db, sql: "PRAGMA journal_mode")
        }
        return (
            (attributes?[.size] as? Int) ?? 0,
            FileManager.default.fileExists(atPath: ledger.path + "-journal"),
            mode
        )
    }

    private func main(_ ledger: Ledger) async throws -> [TransactionRecord] {
        try await ledger.list(HistoryFilter(vault: "main", includeHidden: true), limit: Int.max).items
    }

    @Test func aBundleImportedIntoAnEmptyLedgerGoesThroughNoWAL() async throws {
        let device = try await TestLedger()
        _ = try await device.ledger.importBundle(at: bundle, secret: secret)
        let files = try await sideFiles(device.ledger)
        #expect(files.wal == 0)
        #expect(!files.journal)
        #expect(files.mode == "wal")
        #expect(try await main(device.ledger) == main(source.ledger))
        // Reads and writes go on as in any ledger.
        try await device.ledger.record(try Fixture.minimalSend(vault: "main", hash: 9_001))
        #expect(try await main(device.ledger).count == main(source.ledger).count + 1)
    }

    /// Another replica's ledger file merged into an empty ledger (`txledger merge`, a device
    /// set up from another's file): the same.
    @Test func aLedgerFileMergedIntoAnEmptyLedgerGoesThroughNoWAL() async throws {
        let device = try await TestLedger()
        _ = try await device.ledger.merge(ledgerAt: source.ledger.path)
        let files = try await sideFiles(device.ledger)
        #expect(files.wal == 0)
        #expect(!files.journal)
        #expect(files.mode == "wal")
        #expect(try await device.ledger.all() == source.ledger.all())
    }

    @Test func aLedgerThatHoldsARecordKeepsTheWAL() async throws {
        let device = try await TestLedger()
        try await device.ledger.record(try Fixture.minimalSend(vault: "other", hash: 1))
        _ = try await device.ledger.importBundle(at: bundle, secret: secret)
        #expect(try await sideFiles(device.ledger).wal > 0)
        #expect(try await main(device.ledger) == main(source.ledger))
    }

    /// Another connection to the file (another pool, as another process would hold): SQLite
    /// keeps the WAL, and the import goes through it as any write does.
    @Test func anotherConnectionOpenKeepsTheWAL() async throws {
        let device = try await TestLedger()
        let other = try await device.reopened()
        #expect(try await other.all().isEmpty)
        _ = try await device.ledger.importBundle(at: bundle, secret: secret)
        #expect(try await sideFiles(device.ledger).wal > 0)
        #expect(try await main(other) == main(source.ledger))
    }

    /// A bundle that fails midway (its last chunk cut off) leaves the empty ledger as it was, in
    /// WAL mode, with no journal left behind.
    @Test func aFailedLoadLeavesTheLedgerEmptyAndInWALMode() async throws {
        let device = try await TestLedger()
        let damaged = device.directory.path("damaged.txb")
        let sealed = try Data(contentsOf: URL(fileURLWithPath: bundle))
        try sealed.dropLast().write(to: URL(fileURLWithPath: damaged))
        await #expect(throws: BundleError.self) { try await device.ledger.importBundle(at: damaged, secret: secret) }
        #expect(try await device.ledger.all().isEmpty)
        let files = try await sideFiles(device.ledger)
        #expect(!files.journal)
        #expect(files.mode == "wal")
        _ = try await device.ledger.importBundle(at: bundle, secret: secret)
        #expect(try await main(device.ledger) == main(source.ledger))
    }
}
