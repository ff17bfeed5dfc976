import Foundation
import TxLedgerCore
import TxLedgerStore

/// A transaction ledger stored in one SQLite file: one replica of each of its vaults' histories.
///
/// Thread safe; every operation is `async` and runs on the file's `LedgerDatabase` (GRDB's
/// database pool: one writer, many concurrent readers, WAL). Several processes may open the
/// same file.
///
/// ```swift
/// let ledger = try await Ledger.open(path: Ledger.defaultPath())
/// let (record, _) = try await ledger.recordSend(
///     vault: "main", chain: "eip155:1", hash: "0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b",
///     to: "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", amount: .baseUnits("250000000000000000", decimals: 18), token: "ETH")
/// let page = try await ledger.list(HistoryFilter(vault: "main"), limit: 50)
/// ```
public final class Ledger: Sendable {
    /// How a ledger is opened and behaves.
    public typealias Options = LedgerOptions

    /// The ledger file's path.
    public var path: String { database.path }
    /// This file's replica id. It changes only if the file finds it was restored from a backup
    /// or copied to another device (Specs/crdt.md, "Restored and cloned files").
    public var replicaID: ReplicaID { database.replicaID }
    /// The open file: opening, migrations, transactions.
    let database: LedgerDatabase
    var options: Options { database.options }

    /// Opens the ledger at `path`, creating it (and its folder) if it does not exist.
    ///
    /// - Throws: `LedgerError.unreadableDatabase` if the file is not a TxLedger database
    ///   (another SQLite database, not SQLite at all, corrupt, unreadable), and
    ///   `LedgerError.newerSchema` if a newer TxLedger wrote it. The file is never modified then.
    public init(path: String, options: Options = Options()) throws {
        database = try LedgerDatabase(path: path, options: options)
    }

    /// Opens the ledger at `path` as `init(path:options:)` does, on a thread of its own: opening
    /// may migrate the file or wait up to the busy timeout for another process, which must not
    /// block an actor (the main actor among them) or Swift's cooperative threads.
    /// - Throws: what `init(path:options:)` throws.
    public static func open(path: String, options: Options = Options()) async throws -> Ledger {
        try await DedicatedThread.run { try Ledger(path: path, options: options) }
    }

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

    /// Runs `body` in one write transaction (`LedgerDatabase.write`).
    func write<T: Sendable>(_ body: @escaping @Sendable (inout LedgerTransaction) throws -> T) async throws -> T {
        try await database.write(body)
    }

    /// Runs `body` on a read-only snapshot.
    func read<T: Sendable>(_ body: @escaping @Sendable (RecordStore) throws -> T) async throws -> T {
        try await database.read(body)
    }
}
