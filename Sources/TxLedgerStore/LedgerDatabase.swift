import Foundation
import GRDB
import Logging
import TxLedgerCore

/// One ledger file, open: the storage layer under `Ledger`. It opens and migrates the file
/// (refusing files that are not a TxLedger ledger or were written by a newer one), and runs
/// every read on a snapshot and every write in one transaction with the replica's clock and
/// change sequence (`LedgerTransaction`). Thread safe: GRDB's database pool (one writer, many
/// concurrent readers, WAL).
package final class LedgerDatabase: Sendable {
    package let path: String
    /// This file's replica id. It changes only if the file finds it was restored from a backup
    /// or copied to another device (Specs/crdt.md, "Restored and cloned files").
    package var replicaID: ReplicaID { identity.get() }
    package let pool: DatabasePool
    package let options: LedgerOptions
    private let identity: LockedValue<ReplicaID>
    /// The epoch this process numbers its changes in, once it has made one.
    private let sessionEpoch = LockedValue<EpochID?>(nil)
    /// The file's tables of texts and replicas that stored records refer to, as last read
    /// (`RecordStore`).
    package let frameTables = LockedValue(FrameTables())

    /// Opens the ledger at `path`, creating it (and its folder) if it does not exist.
    ///
    /// - Throws: `LedgerError.unreadableDatabase` if the file is not a TxLedger database
    ///   (another SQLite database, not SQLite at all, corrupt, unreadable), and
    ///   `LedgerError.newerSchema` if a newer TxLedger wrote it. The file is never modified then.
    package init(path: String, options: LedgerOptions) throws {
        self.path = path
        self.options = options
        let url = URL(fileURLWithPath: path)
        if options.readOnly {
            guard FileManager.default.fileExists(atPath: path) else {
                throw LedgerError.unreadableDatabase(path: path, reason: "the file does not exist")
            }
        } else {
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(),
                    withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700]
                )
            } catch {
                throw LedgerError.unreadableDatabase(path: path, reason: "its folder cannot be created")
            }
            // Owner-only whatever the umask: SQLite gives its side files (`-wal`, `-shm`) the
            // database file's mode.
            FileIdentity.createPrivately(path)
        }
        var configuration = Configuration()
        configuration.readonly = options.readOnly
        configuration.observesSuspensionNotifications = options.sharedContainer
        configuration.label = path
        configuration.foreignKeysEnabled = true
        configuration.busyMode = Self.busyMode(millis: options.busyTimeoutMillis)
        configuration.prepareDatabase { db in
            try db.execute(sql: Self.connectionPragmas)
            db.add(function: RecordRow.textFunction)
            try RecordBlock.register(on: db)
        }
        do {
            pool = try Self.openPool(path, configuration: configuration, readOnly: options.readOnly)
            identity = LockedValue(try pool.read(LedgerMeta.replicaID))
        } catch let error as DatabaseError {
            throw LedgerError.unreadableDatabase(path: path, reason: Self.describe(error), underlying: error)
        }
        options.logger.debug("opened ledger", metadata: ["path": "\(path)", "replica": "\(replicaID)"])
    }

    /// Set on every connection (Specs/schema.md, "Database"): durable commits without an fsync
    /// each; a 64 MiB page cache, so a large merge does not spill mid-transaction; a checkpoint
    /// once the WAL holds 8192 pages (32 MiB at 4 KiB pages) instead of SQLite's 1000, so a
    /// series of commits does not copy and fsync the same index pages again and again; and the
    /// WAL cut back to 32 MiB when it is reset, so a large import does not leave a large file.
    package static let connectionPragmas =
        "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -\(cacheKiB); "
        + "PRAGMA wal_autocheckpoint = 8192; PRAGMA journal_size_limit = 33554432"

    /// The page cache of every connection, in KiB (`connectionPragmas`).
    package static let cacheKiB = 65536

    /// How a connection waits for another process's lock: up to `millis`
    /// (`LedgerOptions.busyTimeoutMillis`), brought within what SQLite takes (0 to 2^31 - 1 ms;
    /// GRDB traps beyond).
    package static func busyMode(millis: Int64) -> Database.BusyMode {
        .timeout(TimeInterval(min(max(millis, 0), Int64(Int32.max))) / 1000)
    }

    /// How many times opening tries again while another process creates or upgrades the file
    /// (`openPool`): a bound on the wait, about this many busy timeouts.
    static let openAttempts = 64

    /// Inspects the file, opens the pool and migrates it (or, read-only, checks that it needs no
    /// migration). Another process creating or upgrading the same file holds its lock through
    /// each of these steps in turn, so any of them can give up after the busy timeout: it is then
    /// done again if the file or its WAL changed meanwhile (that process is making progress, it
    /// is not stuck), up to `openAttempts` times. GRDB also reads `grdb_migrations` and, if that
    /// fails, checks whether the table exists: the other process can create the table between
    /// the two, which fails the read with "no such table"; done again, it sees it.
    private static func openPool(_ path: String, configuration: Configuration, readOnly: Bool) throws -> DatabasePool {
        let migrator = LedgerSchema.migrator
        for attempt in 1... {
            let before = DatabaseFilesMark(path)
            do {
                try inspect(path, migrator, configuration.busyMode)
                let pool = try DatabasePool(path: path, configuration: configuration)
                if readOnly {
                    guard try pool.read(migrator.hasCompletedMigrations) else {
                        throw LedgerError.unreadableDatabase(
                            path: path,
                            reason: "it was written by an older TxLedger; open it once with txledger to upgrade it"
                        )
                    }
                } else {
                    try migrate(pool, with: migrator)
                }
                return pool
            } catch let error as DatabaseError where attempt < openAttempts {
                let racedCreation = error.message == "no such table: grdb_migrations"
                let waitedOnProgress =
                    isLockedOut(error) && DatabaseFilesMark(path) != before
                guard racedCreation || waitedOnProgress else { throw error }
            }
        }
        preconditionFailure("the loop returns or throws")
    }

    /// Runs the migrations. GRDB decides which ones to run before it takes the write lock, so
    /// two processes opening a new file at once can both try the same one: the loser's fails,
    /// rolled back, and it retries against what the winner applied. Each retry needs more
    /// applied migrations than the last attempt saw, so the loop ends.
    private static func migrate(_ pool: DatabasePool, with migrator: DatabaseMigrator) throws {
        while true {
            let applied = try pool.read(migrator.appliedIdentifiers)
            do {
                return try migrator.migrate(pool)
            } catch let error as DatabaseError {
                guard try pool.read(migrator.appliedIdentifiers) != applied else { throw error }
            }
        }
    }

    /// Looks at an existing, non-empty file through a read-only connection before anything may
    /// write to it (opening the pool alone switches a database to WAL, which rewrites its header).
    private static func inspect(_ path: String, _ migrator: DatabaseMigrator, _ busy: Database.BusyMode) throws {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        guard let size, size > 0 else { return }
        var configuration = Configuration()
        configuration.readonly = true
        // Another process may be writing (or checkpointing) the file right now.
        configuration.busyMode = busy
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.read { db in try checkOwnership(db, migrator: migrator, path: path) }
        try queue.close()
    }

    /// Refuses files this ledger must not migrate: a newer TxLedger's, or another program's database.
    private static func checkOwnership(_ db: Database, migrator: DatabaseMigrator, path: String) throws {
        if try migrator.hasBeenSuperseded(db) {
            throw LedgerError.newerSchema(path: path)
        }
        let isOurs = try db.tableExists("grdb_migrations")
        let userTables =
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'") ?? 0
        if !isOurs && userTables > 0 {
            throw LedgerError.unreadableDatabase(
                path: path,
                reason: "it is a SQLite database of another program, not a TxLedger ledger"
            )
        }
    }

    package static func describe(_ error: DatabaseError) -> String {
        switch error.resultCode {
        case .SQLITE_NOTADB: "it is not a SQLite database"
        case .SQLITE_CORRUPT: "the database is corrupt"
        case .SQLITE_CANTOPEN: "the file cannot be opened (check the path and its permissions)"
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH: "the file is read-only or not permitted"
        case .SQLITE_FULL: "the disk is full"
        case .SQLITE_BUSY, .SQLITE_LOCKED: "another process kept the database locked for too long"
        case .SQLITE_IOERR: "an I/O error occurred"
        default: error.message ?? "SQLite error \(error.resultCode.rawValue)"
        }
    }

    /// The database file and its SQLite side files: exports must never replace them.
    package var ownFiles: [String] { ["", "-wal", "-shm", "-journal"].map { path + $0 } }

    // MARK: - Transactions

    /// Runs `body` in one write transaction, with the clock and change sequence number loaded at
    /// its start and saved at its end if it used them. Everything `body` writes commits together
    /// or not at all.
    package func write<T: Sendable>(_ body: @escaping @Sendable (inout LedgerTransaction) throws -> T) async throws -> T
    {
        try await mapStorageErrors {
            try await pool.write { db in try transact(db, body) }
        }
    }

    /// `write(_:)` for a transaction that may add much to a ledger that holds no record yet (a
    /// new device's first sync of its vault: `importBundle`). While the ledger holds no record
    /// and no other connection has the file open, the transaction runs in SQLite's
    /// rollback-journal mode, which writes each page the ledger did not have once, into the
    /// file, where the WAL writes it twice (into the WAL, then into the file at the checkpoint
    /// that follows the commit: 0.7 of the writer's 1.7 s of CPU in the first sync of a 1M-record
    /// vault). The journal holds the pages the file had, so a failure or a crash leaves the file
    /// as it was, as the WAL would (Specs/schema.md, "Database"). Reads of this pool wait until
    /// it ends; the file returns to WAL mode before anything else may use it. Otherwise (a
    /// record held, or another connection open: SQLite then keeps the WAL) it is `write(_:)`,
    /// which reads do not wait for.
    package func writeIntoEmpty<T: Sendable>(
        _ body: @escaping @Sendable (inout LedgerTransaction) throws -> T
    ) async throws -> T {
        guard try await read({ try $0.holdsNoRecord() }) else { return try await write(body) }
        return try await mapStorageErrors {
            try await pool.barrierWriteWithoutTransaction { db in
                // Another write of this pool may have come first.
                guard try RecordStore(db, path: path, tables: frameTables).holdsNoRecord() else {
                    return try transacted(db, body)
                }
                // This pool's idle readers keep the WAL open; closed, they reopen on the next read.
                pool.invalidateReadOnlyConnections()
                let appending = try Self.setJournalMode("delete", db)
                let outcome = Result { try transacted(db, body) }
                if appending { try Self.returnToWAL(db, waitingMillis: options.busyTimeoutMillis) }
                return try outcome.get()
            }
        }
    }

    /// Switches `db`'s file back to WAL mode after `writeIntoEmpty`'s transaction. That needs the
    /// file to itself, and SQLite does not wait for it: another process that opened the file
    /// meanwhile may hold a read lock for a moment, so the switch is tried again every
    /// millisecond for as long as a busy timeout lasts (SQLite's own busy handler waits so).
    /// - Throws: `SQLITE_BUSY` if the file was never free: what the transaction wrote stays, and
    ///   the next opening of the file switches it to WAL mode.
    private static func returnToWAL(_ db: Database, waitingMillis: Int64) throws {
        // A monotonic clock: a change of the machine's time neither ends nor stretches the wait.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(max(waitingMillis, 0)))
        while try !setJournalMode("wal", db) {
            guard clock.now < deadline else {
                throw DatabaseError(resultCode: .SQLITE_BUSY, message: "the file could not return to WAL mode")
            }
            usleep(1000)
        }
    }

    /// Switches `db`'s file to journal mode `mode` (lower case); `false` if another connection
    /// has the file open, which SQLite reports at once, without waiting.
    private static func setJournalMode(_ mode: String, _ db: Database) throws -> Bool {
        do {
            return try String.fetchOne(db, sql: "PRAGMA journal_mode = \(mode)") == mode
        } catch let error as DatabaseError where isLockedOut(error) {
            return false
        }
    }

    /// Whether `error` is another connection's lock that SQLite waited for in vain, or did not
    /// wait for.
    private static func isLockedOut(_ error: DatabaseError) -> Bool {
        [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode)
    }

    /// `transact` in a transaction of its own on `db`, which is in none.
    private func transacted<T>(_ db: Database, _ body: (inout LedgerTransaction) throws -> T) throws -> T {
        var result: T?
        try db.inTransaction(.immediate) {
            result = try transact(db, body)
            return .commit
        }
        return result!
    }

    /// The transaction of `write(_:)` on `db`, which is in a write transaction.
    private func transact<T>(_ db: Database, _ body: (inout LedgerTransaction) throws -> T) throws -> T {
        let meta = try LedgerMeta.load(db, maxForwardDrift: options.maxForwardDriftMillis)
        var transaction = LedgerTransaction(
            store: RecordStore(db, path: path, changeSeq: meta.seq + 1, tables: frameTables),
            stamps: StampSource(clock: meta.clock, wallClock: options.wallClock)
        )
        let result = try body(&transaction)
        let (store, stamps) = (transaction.store, transaction.stamps)
        try store.writeCounts()
        let renamed = stamps.clock.replica != meta.clock.replica
        if store.changed {
            try startEpochIfNeeded(fileEpoch: renamed ? nil : meta.epoch, at: store.changeSeq, db)
        }
        try LedgerMeta.save(
            clock: stamps.issued ? stamps.clock : nil,
            seq: store.changed ? store.changeSeq : nil,
            db
        )
        if renamed { identity.set(stamps.clock.replica) }
        return result
    }

    /// Numbers this process's first change, and any change after another process or copy of the
    /// file wrote, in a new epoch (Specs/crdt.md, "Restored and cloned files").
    private func startEpochIfNeeded(fileEpoch: EpochID?, at seq: Int64, _ db: Database) throws {
        try sessionEpoch.update { current in
            if let current, current == fileEpoch { return }
            let fresh = EpochID.random()
            try LedgerMeta.startEpoch(fresh, at: seq, db)
            current = fresh
        }
    }

    /// Runs `body` on a read-only snapshot.
    package func read<T: Sendable>(_ body: @escaping @Sendable (RecordStore) throws -> T) async throws -> T {
        let (path, tables) = (path, frameTables)
        return try await mapStorageErrors {
            try await pool.read { db in try body(RecordStore(db, path: path, tables: tables)) }
        }
    }

    package func mapStorageErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as DatabaseError {
            throw LedgerError.storage(path: path, reason: Self.describe(error), underlying: error)
        }
    }

    /// Closes the pool's connections, waiting on a thread of its own for work under way.
    package func close() async throws {
        let pool = pool
        try await mapStorageErrors { try await DedicatedThread.run { try pool.close() } }
    }

    /// Interrupts and suspends every pool opened with `LedgerOptions.sharedContainer` (GRDB's
    /// suspension), until `resumeAll()`.
    package static func suspendAll() {
        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
    }

    /// Lets the pools that `suspendAll()` suspended work again.
    package static func resumeAll() {
        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
    }
}
