import CSQLiteDefensive
import Foundation
import GRDB
import GRDBSQLite
import TxLedgerCore

/// Another replica's ledger file, given to `Ledger.merge(ledgerAt:)`: untrusted input, read
/// with the caps of a bundle (Specs/threat-model.md, "Another replica's ledger file").
///
/// Before anything is read from it: the path must name a regular file that is not this
/// ledger's (by device and inode); the connection is read-only, `SQLITE_DBCONFIG_DEFENSIVE`,
/// `trusted_schema` off, no extensions, no attached files, no string or blob longer than
/// `maxValueBytes`, and its work is counted against a budget that grows with the file's size;
/// then the schema must be exactly the one this version's migrations make (no view, trigger or
/// other object), `quick_check` must pass, and every migration must be applied.
package final class OtherLedgerFile: Sendable {
    let path: String
    /// The file's tables of stored texts and replicas, as read (`RecordStore`).
    let tables = LockedValue(FrameTables())
    private let queue: DatabaseQueue
    private let budget: WorkBudget

    /// Longest string or blob read from the file: a stored frame's limit and some room.
    static let maxValueBytes = FrameDecoder.maxFrameBytes + (1 << 20)
    /// Most vaults a file may hold.
    static let maxVaults = 1 << 16
    /// The work its queries may do, in SQLite virtual machine steps: this many per 4 KiB of
    /// file (a merge of a ledger of 50,000 records took about 580), and this many more for
    /// any file.
    static let stepsPerPage: Int64 = 50_000
    static let baseSteps: Int64 = 10_000_000

    /// - Parameters:
    ///   - own: this ledger's path; the file must not be it, under any name.
    ///   - steps: the work budget, in SQLite virtual machine steps; by default `baseSteps` and
    ///     `stepsPerPage` for each 4 KiB of the file.
    ///   - busyTimeoutMillis: how long to wait for another process's lock on the file, as the
    ///     merging ledger's own connections wait (`LedgerOptions.busyTimeoutMillis`).
    /// - Throws: `LedgerError.invalidInput` if the file is this ledger itself;
    ///   `LedgerError.unreadableDatabase` (naming `path`) if it is not a regular file, not a
    ///   ledger of this version, damaged, or breaks a limit; `LedgerError.newerSchema`.
    package init(
        path: String,
        notBeing own: String,
        steps: Int64? = nil,
        busyTimeoutMillis: Int64 = LedgerOptions.defaultBusyTimeoutMillis
    ) throws {
        self.path = path
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw LedgerError.unreadableDatabase(path: path, reason: "the file does not exist or cannot be read")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw LedgerError.unreadableDatabase(
                path: path,
                reason: "it is not a regular file (a folder, a FIFO or a device)"
            )
        }
        guard FileIdentity(info) != FileIdentity(path: own, following: true) else {
            throw LedgerError.invalidInput(
                field: "merge",
                reason: "'\(OutsideText.escaped(path))' is this ledger itself"
            )
        }
        let budget = WorkBudget(steps: steps ?? Self.baseSteps + Self.stepsPerPage * (Int64(info.st_size) / 4096))
        self.budget = budget
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = path
        configuration.busyMode = LedgerDatabase.busyMode(millis: busyTimeoutMillis)
        configuration.prepareDatabase { db in try Self.harden(db, budget: budget) }
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.inDatabase { db in try Self.check(db, path: path) }
        } catch let error as DatabaseError {
            throw Self.unreadable(path, error, budget: budget)
        }
    }

    /// Runs `body` on one snapshot of the file.
    /// - Throws: what `body` throws; a SQLite error as `LedgerError.unreadableDatabase`
    ///   naming this file.
    package func read<T>(_ body: (RecordStore) throws -> T) throws -> T {
        do {
            return try queue.read { db in try body(RecordStore(db, path: path, tables: tables)) }
        } catch let error as DatabaseError {
            throw Self.unreadable(path, error, budget: budget)
        }
    }

    private static func unreadable(_ path: String, _ error: DatabaseError, budget: WorkBudget) -> LedgerError {
        let reason =
            switch error.resultCode {
            case .SQLITE_INTERRUPT where budget.isSpent:
                "reading it took more work than a ledger of its size needs; nothing was merged"
            case .SQLITE_TOOBIG:
                "it holds a value longer than any ledger's (\(maxValueBytes) bytes); nothing was merged"
            case .SQLITE_CORRUPT:
                // Found before quick_check when the damage reaches its schema's pages.
                "it is damaged (SQLite finds it corrupt); nothing was merged"
            default: LedgerDatabase.describe(error) + "; nothing was merged"
            }
        return .unreadableDatabase(path: path, reason: reason, underlying: error)
    }

    // MARK: - Opening

    /// The connection's settings for a file nobody vouches for.
    private static func harden(_ db: Database, budget: WorkBudget) throws {
        guard let connection = db.sqliteConnection,
            txledger_sqlite3_enable_defensive(connection) == SQLITE_OK
        else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the connection cannot be made defensive")
        }
        sqlite3_limit(connection, SQLITE_LIMIT_LENGTH, Int32(maxValueBytes))
        sqlite3_limit(connection, SQLITE_LIMIT_SQL_LENGTH, 1 << 20)
        sqlite3_limit(connection, SQLITE_LIMIT_ATTACHED, 0)
        sqlite3_progress_handler(
            connection,
            WorkBudget.interval,
            WorkBudget.callback,
            Unmanaged.passUnretained(budget).toOpaque()
        )
        try db.execute(sql: "PRAGMA trusted_schema = OFF; PRAGMA query_only = ON; PRAGMA cache_size = -8192")
        try RecordBlock.register(on: db)
    }

    /// The schema first (nothing else is read before it is known to hold only tables and
    /// indexes as this version makes them), then the pages, then the migrations.
    private static func check(_ db: Database, path: String) throws {
        func refuse(_ reason: String) -> LedgerError {
            .unreadableDatabase(path: path, reason: reason + "; nothing was merged")
        }
        let schema = try SchemaObject.fetchAll(db)
        if schema.isEmpty { throw refuse("it is empty, not a TxLedger ledger") }
        let migrator = LedgerSchema.migrator
        if schema != expectedSchema {
            // Its migrations are read only from the table GRDB makes (a view could run without end).
            guard let migrations = expectedSchema.first(where: { $0.name == "grdb_migrations" }),
                schema.contains(migrations)
            else {
                throw refuse("it is not a TxLedger ledger (a SQLite database of another program)")
            }
            if let identifiers = try? migrator.appliedIdentifiers(db),
                !identifiers.isSubset(of: Set(migrator.migrations))
            {
                throw LedgerError.newerSchema(path: path)
            }
            guard try migrator.hasCompletedMigrations(db) else {
                throw refuse("it was written by an older TxLedger; open it once with txledger to upgrade it")
            }
            let unexpected = schema.first { !expectedSchema.contains($0) }.map {
                "\($0.type) '\(OutsideText.escaped($0.name))'"
            }
            throw refuse(
                "its schema is not the one TxLedger makes (\(unexpected ?? "a table or index is missing")): "
                    + "only a ledger written by TxLedger is merged"
            )
        }
        guard try String.fetchOne(db, sql: "PRAGMA quick_check(1)") == "ok" else {
            throw refuse("it is damaged (SQLite's quick_check fails)")
        }
        guard Set(try migrator.appliedIdentifiers(db)) == Set(migrator.migrations) else {
            throw refuse("its migrations are not the ones of this TxLedger")
        }
        guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM vault")! <= maxVaults else {
            throw refuse("it holds more than \(maxVaults) vaults")
        }
    }

    /// The schema that this version's migrations make, from a database in memory.
    static let expectedSchema: [SchemaObject] = {
        do {
            var configuration = Configuration()
            configuration.prepareDatabase { db in try RecordBlock.register(on: db) }
            let queue = try DatabaseQueue(configuration: configuration)
            try LedgerSchema.migrator.migrate(queue)
            return try queue.read(SchemaObject.fetchAll)
        } catch {
            preconditionFailure("the migrations run on an empty database: \(error)")
        }
    }()

    /// One row of `sqlite_master`, its SQL with white space folded.
    struct SchemaObject: Equatable, Sendable {
        let type: String
        let name: String
        let table: String
        let sql: String?

        static func fetchAll(_ db: Database) throws -> [SchemaObject] {
            try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").map {
                row in
                let sql: String? = row["sql"]
                return SchemaObject(
                    type: row["type"],
                    name: row["name"],
                    table: row["tbl_name"],
                    sql: sql.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
                )
            }
        }
    }
}

/// How much work SQLite may do for one file: its progress handler, called every `interval`
/// virtual machine steps, interrupts the query once the budget is spent.
private final class WorkBudget: @unchecked Sendable {
    // @unchecked: `left` is only touched by the one connection's progress handler, which runs
    // on the thread executing that connection's statement, one at a time (a DatabaseQueue).
    static let interval: Int32 = 1000
    private var left: Int64

    init(steps: Int64) {
        left = steps / Int64(Self.interval)
    }

    var isSpent: Bool { left < 0 }

    static let callback: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
        let budget = Unmanaged<WorkBudget>.fromOpaque(context!).takeUnretainedValue()
        budget.left -= 1
        return budget.left < 0 ? 1 : 0
    }
}
