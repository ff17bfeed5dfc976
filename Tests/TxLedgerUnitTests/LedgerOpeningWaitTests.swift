import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Opening a file whose lock another process holds, as one does while it creates or upgrades
/// the file (Specs/schema.md, "Database"): the wait outlasts the busy timeout while that process
/// makes progress, and ends with a clear error when it does not.
struct LedgerOpeningWaitTests {
    let folder: TemporaryDirectory
    let path: String
    /// Another connection to the file, as another process has: a ledger being created (WAL,
    /// GRDB's migrations table, no migration applied yet).
    let other: DatabaseQueue

    init() throws {
        folder = try TemporaryDirectory()
        path = folder.path("ledger.sqlite")
        other = try DatabaseQueue(path: path)
        try other.writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            // A tiny page cache: the long transaction below spills its pages to the WAL as it
            // goes, so the files change while it holds the lock.
            try db.execute(sql: "PRAGMA cache_size = 2")
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            try db.execute(sql: "CREATE TABLE progress (bytes BLOB)")
        }
    }

    /// Holds the write lock (on a thread of its own) from the time `locked` yields until
    /// `release` returns true, writing a page to the WAL every 20 ms if `writing`; then rolls back.
    private func holdLock(
        writing: Bool,
        locked: AsyncStream<Void>.Continuation,
        release: @escaping @Sendable () -> Bool
    ) async throws {
        let other = other
        try await DedicatedThread.run {
            try other.inDatabase { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                locked.yield()
                while !release() {
                    if writing { try db.execute(sql: "INSERT INTO progress VALUES (zeroblob(8192))") }
                    Thread.sleep(forTimeInterval: 0.02)
                }
                try db.execute(sql: "ROLLBACK")
            }
        }
    }

    @Test func openingWaitsForAProcessThatHoldsTheLockLongerThanTheTimeoutWhileItMakesProgress() async throws {
        let (locked, lockedNow) = AsyncStream<Void>.makeStream()
        let clock = ContinuousClock()
        let start = clock.now
        // Two and a half timeouts: opening gives up at least twice, each time after seeing the
        // WAL grow.
        async let holding: Void = holdLock(writing: true, locked: lockedNow) { clock.now - start > .milliseconds(2500) }
        for await _ in locked { break }
        let options = LedgerOptions(logger: .quiet, busyTimeoutMillis: 1000)
        let ledger = try await Ledger.open(path: path, options: options)
        try await holding
        try await ledger.record(try Fixture.send())
        #expect(try await ledger.all().count == 1)
    }

    @Test func openingReportsALockHeldWithoutProgressAndWritesNothing() async throws {
        let (locked, lockedNow) = AsyncStream<Void>.makeStream()
        let done = LockedValue(false)
        async let holding: Void = holdLock(writing: false, locked: lockedNow) { done.get() }
        for await _ in locked { break }
        let options = LedgerOptions(logger: .quiet, busyTimeoutMillis: 100)
        await #expect {
            try await Ledger.open(path: path, options: options)
        } throws: { error in
            (error as? LedgerError)?.reason == "another process kept the database locked for too long"
        }
        done.set(true)
        try await holding
        #expect(try await other.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM grdb_migrations") } == 0)
    }

    @Test(arguments: [Int64.min, -1, 0, Int64(Int32.max) + 1, Int64.max])
    func aBusyTimeoutOutOfSQLitesRangeIsBroughtWithinIt(millis: Int64) async throws {
        let ledger = try await Ledger.open(
            path: folder.path("other.sqlite"),
            options: .init(logger: .quiet, busyTimeoutMillis: millis)
        )
        try await ledger.record(try Fixture.send())
        #expect(try await ledger.all().count == 1)
    }
}
