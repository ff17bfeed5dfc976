import Foundation
import GRDB
import Logging

/// A transaction ledger stored in one SQLite file: one replica of each of its vaults' histories.
///
/// Thread safe; every operation is `async` and runs on GRDB's database pool (one writer, many
/// concurrent readers, WAL). Several processes may open the same file.
///
/// ```swift
/// let ledger = try Ledger(path: Ledger.defaultPath())
/// let facts = try TransactionFacts(vaultId: "main", chain: try Chain(parsing: "ethereum"), ...)
/// try await ledger.record(try TransactionRecord(facts: facts))
/// let page = try await ledger.list(vault: "main")
/// ```
public final class Ledger: Sendable {
    public struct Options: Sendable {
        /// The wall clock that stamps are derived from; tests inject their own.
        public var wallClock: @Sendable () -> Date
        public var logger: Logger
        /// Remote stamps further ahead of the wall clock than this do not advance the clock.
        public var maxForwardDriftMillis: Int64
        /// Open an existing ledger without ever writing to it (e.g. another replica's file to
        /// merge from). Writes then fail with `LedgerError.storage`.
        public var readOnly: Bool
        /// How long a peer not heard from still holds back the default export's deltas
        /// (`ExportScope.knownPeers`): a lost phone must not make every later export a full one.
        public var peerHorizonMillis: Int64
        /// The file is in an App Group container that an app shares with its extensions: the
        /// ledger then honours `Ledger.suspendAll()`, which an app calls as it goes to the
        /// background, so that iOS does not kill it for holding a database lock while suspended
        /// (0xdead10cc); `Ledger.resumeAll()` lets it work again. (GRDB's suspension.)
        public var sharedContainer: Bool
        /// How often observations look for writes by another process (an app extension, a
        /// widget, the CLI) or another `Ledger` on the same file, which GRDB's observation does
        /// not see: milliseconds between two reads of the file's change counter; 0: never.
        public var externalChangesPollMillis: Int64
        /// One second.
        public static let defaultExternalChangesPollMillis: Int64 = 1000
        /// One day: a device whose clock is wrong by hours still syncs its clock forward.
        public static let defaultMaxForwardDriftMillis: Int64 = 24 * 60 * 60 * 1000
        /// Thirty days.
        public static let defaultPeerHorizonMillis: Int64 = 30 * 24 * 60 * 60 * 1000

        public init(
            wallClock: @escaping @Sendable () -> Date = { Date() },
            logger: Logger = Logger(label: "txledger"),
            maxForwardDriftMillis: Int64 = Options.defaultMaxForwardDriftMillis,
            peerHorizonMillis: Int64 = Options.defaultPeerHorizonMillis,
            readOnly: Bool = false,
            sharedContainer: Bool = false,
            externalChangesPollMillis: Int64 = Options.defaultExternalChangesPollMillis
        ) {
            self.readOnly = readOnly
            self.sharedContainer = sharedContainer
            self.externalChangesPollMillis = externalChangesPollMillis
            self.wallClock = wallClock
            self.logger = logger
            self.maxForwardDriftMillis = maxForwardDriftMillis
            self.peerHorizonMillis = peerHorizonMillis
        }
    }

    public let path: String
    /// This file's replica id. It changes only if the file finds it was restored from a backup
    /// or copied to another device (Specs/crdt.md, "Restored and cloned files").
    public var replicaID: ReplicaID { identity.get() }
    let pool: DatabasePool
    let options: Options
    private let identity: LockedValue<ReplicaID>
    /// The epoch this process numbers its changes in, once it has made one.
    private let sessionEpoch = LockedValue<EpochID?>(nil)
    /// The file's tables of texts and replicas that stored records refer to, as last read
    /// (`RecordStore`).
    let frameTables = LockedValue(FrameTables())

    /// Opens the ledger at `path`, creating it (and its folder) if it does not exist.
    ///
    /// - Throws: `LedgerError.unreadableDatabase` if the file is not a TxLedger database
    ///   (another SQLite database, not SQLite at all, corrupt, unreadable), and
    ///   `LedgerError.newerSchema` if a newer TxLedger wrote it. The file is never modified then.
    public init(path: String, options: Options = Options()) throws {
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
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.prepareDatabase { db in
            try db.execute(sql: Self.connectionPragmas)
            db.add(function: RecordRow.textFunction)
        }
        do {
            pool = try Self.openPool(path, configuration: configuration, readOnly: options.readOnly)
            identity = LockedValue(try pool.read(LedgerMeta.replicaID))
        } catch let error as DatabaseError {
            throw LedgerError.unreadableDatabase(path: path, reason: Self.describe(error))
        }
        options.logger.debug("opened ledger", metadata: ["path": "\(path)", "replica": "\(replicaID)"])
    }

    /// Opens the ledger at `path` as `init(path:options:)` does, on a thread of its own: opening
    /// may migrate the file or wait up to the busy timeout for another process, which must not
    /// block an actor (the main actor among them) or Swift's cooperative threads.
    /// - Throws: what `init(path:options:)` throws.
    public static func open(path: String, options: Options = Options()) async throws -> Ledger {
        try await DedicatedThread.run { try Ledger(path: path, options: options) }
    }

    /// Set on every connection (Specs/schema.md, "Database"): durable commits without an fsync
    /// each; a 64 MiB page cache, so a large merge does not spill mid-transaction; a checkpoint
    /// once the WAL holds 8192 pages (32 MiB at 4 KiB pages) instead of SQLite's 1000, so a
    /// series of commits does not copy and fsync the same index pages again and again; and the
    /// WAL cut back to 32 MiB when it is reset, so a large import does not leave a large file.
    static let connectionPragmas =
        "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536; "
        + "PRAGMA wal_autocheckpoint = 8192; PRAGMA journal_size_limit = 33554432"

    /// How long a connection waits for another process's transaction (an import holds the
    /// write lock while it merges) before it reports the database as locked: seconds.
    static let busyTimeout: TimeInterval = 10

    /// The ledger file used when none is named: `$TXLEDGER_DB` if set; else on Linux
    /// `$XDG_DATA_HOME/txledger/ledger.sqlite` (default `~/.local/share/txledger/ledger.sqlite`);
    /// on Apple platforms `Application Support/TxLedger/ledger.sqlite` in the user's library.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["TXLEDGER_DB"], !explicit.isEmpty { return explicit }
        #if canImport(Darwin)
        let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
        return base.appendingPathComponent("TxLedger/ledger.sqlite").path
        #else
        let home = environment["HOME"] ?? NSHomeDirectory()
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
        return dataHome + "/txledger/ledger.sqlite"
        #endif
    }

    /// Inspects the file, opens the pool and migrates it (or, read-only, checks that it needs no
    /// migration). GRDB reads `grdb_migrations` and, if that fails, checks whether the table
    /// exists: another process creating the same new file can create the table between the two,
    /// which fails the read with "no such table". Everything is then done again, and sees it.
    private static func openPool(_ path: String, configuration: Configuration, readOnly: Bool) throws -> DatabasePool {
        let migrator = LedgerSchema.migrator
        for attempt in 1... {
            do {
                try inspectExistingFile(path, migrator: migrator)
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
            } catch let error as DatabaseError where error.message == "no such table: grdb_migrations" && attempt < 5 {
                continue
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
    private static func inspectExistingFile(_ path: String, migrator: DatabaseMigrator) throws {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        guard let size, size > 0 else { return }
        var configuration = Configuration()
        configuration.readonly = true
        // Another process may be writing (or checkpointing) the file right now.
        configuration.busyMode = .timeout(busyTimeout)
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

    static func describe(_ error: DatabaseError) -> String {
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
    var ownFiles: [String] { ["", "-wal", "-shm", "-journal"].map { path + $0 } }

    // MARK: - Transactions

    /// Runs `body` in one write transaction, with the clock and change sequence number loaded at
    /// its start and saved at its end if it used them. Everything `body` writes commits together
    /// or not at all.
    func write<T: Sendable>(_ body: @escaping @Sendable (inout LedgerTransaction) throws -> T) async throws -> T {
        let (path, tables) = (path, frameTables)
        let options = options
        return try await mapStorageErrors {
            try await pool.write { db in
                let meta = try LedgerMeta.load(db, maxForwardDrift: options.maxForwardDriftMillis)
                var transaction = LedgerTransaction(
                    store: RecordStore(db, path: path, changeSeq: meta.seq + 1, tables: tables),
                    stamps: StampSource(clock: meta.clock, wallClock: options.wallClock)
                )
                let result = try body(&transaction)
                let (store, stamps) = (transaction.store, transaction.stamps)
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
        }
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
    func read<T: Sendable>(_ body: @escaping @Sendable (RecordStore) throws -> T) async throws -> T {
        let (path, tables) = (path, frameTables)
        return try await mapStorageErrors {
            try await pool.read { db in try body(RecordStore(db, path: path, tables: tables)) }
        }
    }

    func mapStorageErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as DatabaseError {
            throw LedgerError.storage(path: path, reason: Self.describe(error))
        }
    }
}
