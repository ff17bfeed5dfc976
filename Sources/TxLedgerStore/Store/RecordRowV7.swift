import Foundation
import GRDB
import TxLedgerCore

/// The `record` table of schema v7 (a column per field, the app in the `app` table, newer
/// fields in `newer_fields`), read once by migration v8 into the compact table. Each row keeps
/// its change number; a row that does not hold a valid record fails the migration (and the
/// file is left as it was).
enum RecordRowV7 {
    static func migrate(_ db: Database) throws {
        // v7 had a column for each field up to the last formats 1–3 know.
        let fields = RecordField.allCases.filter { !$0.isApp && $0.number <= RecordField.lastInFormat3.number }
        let selection =
            ["r.vault_id", "r.change_seq", "r.newer_fields", "app.domain", "app.uri", "app.scheme"]
            + fields.map { "r.\($0.name)" }
        let rows = try Row.fetchCursor(
            db,
            sql: "SELECT \(selection.joined(separator: ", ")) FROM record_v7 r LEFT JOIN app ON app.id = r.app_id"
        )
        // The table as migration v8 makes it: `disputed` came with v12.
        let store = RecordStore(
            db,
            path: db.description,
            changeSeq: 0,
            tables: LockedValue(FrameTables()),
            columns: RecordRow.Column.allCases.filter { $0 != .disputed }
        )
        while let row = try rows.next() {
            var values = RecordFields(vault: row[0])
            for (offset, field) in ([RecordField.appDomain, .appUri, .appScheme] + fields).enumerated() {
                switch (row[3 + offset] as DatabaseValue).storage {
                case let .int64(integer): values[field] = .integer(integer)
                case let .string(text) where !(field.isApp && text.isEmpty): values[field] = .text(text)
                default: break
                }
            }
            if let newer = Data.fromDatabaseValue(row[2]) {
                values.newer = try NewerFields(storedBytes: Array(newer))
            }
            do {
                // Schema v7 knows no evidence: an inference of its version is one (crdt.md).
                try store.write(try RecordState(fields: values).withOlderInference, changeSeq: row[1])
            } catch let error as LedgerError {
                throw LedgerError.unreadableDatabase(
                    path: db.description,
                    reason: "a record of schema v7 is malformed (\(error.localizedDescription))",
                    underlying: error
                )
            }
        }
    }
}
