import Foundation
import TxLedger

/// The work directory of a run and the ledger and bundle files in it.
struct LedgerFiles {
    let directory: String
    /// Whether the scenarios leave their files behind (a directory given with `--directory`), to
    /// profile a `txledger` process on them or to look inside.
    var keepsFiles = false

    func path(_ name: String) -> String { directory + "/" + name }

    /// A new, empty ledger file (any old one removed): the schema, nothing else.
    func freshLedger(_ name: String) throws -> String {
        let path = path(name)
        remove(name)
        _ = try Ledger(path: path)
        return path
    }

    /// A copy of a closed ledger file (with its WAL, if SQLite left one).
    func copy(_ source: String, to name: String) throws -> String {
        remove(name)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: path(name) + suffix)
        }
        return path(name)
    }

    /// Removes files a scenario is done with, unless the run keeps its files.
    func discard(_ names: String...) {
        guard !keepsFiles else { return }
        for name in names { remove(name) }
    }

    func remove(_ name: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path(name) + suffix)
        }
    }

    /// The size of a ledger file once its WAL is checkpointed into it (and truncated).
    func checkpointedSize(_ name: String) throws -> Int {
        let raw = try RawSQLite(path: path(name))
        try raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return try size(name)
    }

    func size(_ name: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path(name))[.size] as? Int) ?? 0
    }
}
