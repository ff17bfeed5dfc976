import Foundation
import GRDB
import TxLedgerCore

/// The `folder_file` table: the files of each sync folder this replica read or wrote
/// (Specs/folder-sync.md, "What a device remembers").
extension RecordStore {
    package func folderFiles(_ folder: String) throws -> [FolderFile] {
        try Row.fetchAll(db, sql: "SELECT * FROM folder_file WHERE folder = ? ORDER BY name", arguments: [folder]).map {
            row in
            let origin: Int64 = row["origin"]
            guard origin >= 0 else {
                throw LedgerError.unreadableDatabase(
                    path: db.configuration.label ?? "",
                    reason: "a folder file has a negative origin"
                )
            }
            return FolderFile(
                name: row["name"],
                size: row["size"],
                vault: row["vault_id"],
                origin: ReplicaID(rawValue: origin),
                since: row["since_seq"],
                through: row["through_seq"],
                written: row["written"],
                membership: (row["membership"] as Data?).map { Array($0) },
                coversThrough: row["covers_through"],
                rival: row["rival"]
            )
        }
    }

    /// Remembers `file`; one this replica adopts (`coversThrough`) is the only one of its vault
    /// it keeps adopted, so that its later files never build on an older one.
    package func rememberFolderFile(_ folder: String, _ file: FolderFile) throws {
        if file.coversThrough != nil {
            try db.execute(
                sql: "UPDATE folder_file SET covers_through = NULL WHERE folder = ? AND vault_id = ?",
                arguments: [folder, file.vault]
            )
        }
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO folder_file
                    (folder, name, size, vault_id, origin, since_seq, through_seq, written, membership,
                    covers_through, rival)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                folder, file.name, file.size, file.vault, file.origin.rawValue, file.since, file.through, file.written,
                file.membership.map { Data($0) }, file.coversThrough, file.rival,
            ]
        )
    }

    /// Notes that this replica wrote a full file of `vault` in `folder`: it holds the rivals,
    /// and its later files build on it, not on a file it adopted before.
    package func noteFullFileWritten(_ folder: String, vault: String) throws {
        try db.execute(
            sql: """
                UPDATE folder_file SET rival = 0, covers_through = NULL
                WHERE folder = ? AND vault_id = ? AND (rival = 1 OR covers_through IS NOT NULL)
                """,
            arguments: [folder, vault]
        )
    }

    package func forgetFolderFiles(_ folder: String, names: [String]) throws {
        // A statement per 500 names, within SQLite's limit on parameters.
        for start in stride(from: 0, to: names.count, by: 500) {
            let some = names[start..<min(start + 500, names.count)]
            let marks = Array(repeating: "?", count: some.count).joined(separator: ", ")
            try db.execute(
                sql: "DELETE FROM folder_file WHERE folder = ? AND name IN (\(marks))",
                arguments: StatementArguments([folder] + some)
            )
        }
    }

    /// The names of files of `folder` that this ledger started to write and did not finish.
    package func unfinishedWrites(_ folder: String) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM folder_write WHERE folder = ?", arguments: [folder])
    }

    /// Notes that this ledger starts to write `name` in `folder` (`finished: false`), or has
    /// finished or given up (`finished: true`).
    package func noteWrite(_ folder: String, name: String, finished: Bool) throws {
        try db.execute(
            sql: finished
                ? "DELETE FROM folder_write WHERE folder = ? AND name = ?"
                : "INSERT OR IGNORE INTO folder_write (folder, name) VALUES (?, ?)",
            arguments: [folder, name]
        )
    }
}
