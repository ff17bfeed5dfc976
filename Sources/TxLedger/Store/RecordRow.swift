import Foundation
import GRDB

/// Maps a record to the columns of the `record` table and back. The table has a column per
/// record field (`RecordField`, named as the field), but for the app's fields, kept once per
/// app in the `app` table (`app_id`); and `id`, `vault_id`, `newer_fields` and `change_seq`.
enum RecordRow {
    /// The fields with a column of their own, in `RecordField` order.
    private static let columnFields = RecordField.allCases.filter { !$0.isApp }
    /// The fields of the registers and `lastCheckedAt`: what a status or annotation write changes.
    private static let registerFields = columnFields.filter { $0.register != .facts }

    /// The columns `values(of:appID:changeSeq:)` gives, in order.
    static let columns = ["id", "vault_id", "app_id"] + columnFields.map(\.name) + ["newer_fields", "change_seq"]
    /// The columns `registerValues(of:changeSeq:)` gives, in order.
    static let registerColumns = registerFields.map(\.name) + ["newer_fields", "change_seq"]

    /// `SELECT` list that `decode` reads: the record and its app.
    static let selection =
        (["record.id", "record.vault_id"] + columnFields.map { "record.\($0.name)" }
        + ["record.newer_fields", "app.domain", "app.uri", "app.scheme"]).joined(separator: ", ")
    static let source = "record LEFT JOIN app ON app.id = record.app_id"
    /// Joined to `source` by reads that must hide records erased by a vault clear.
    static let visibleSource = source + " LEFT JOIN vault ON vault.id = record.vault_id"
    /// The condition a visible record meets: its facts are later than its vault's watermark.
    static let isVisible =
        "(vault.cleared_time IS NULL OR (record.facts_time, record.facts_replica) > (vault.cleared_time, vault.cleared_replica))"

    /// The values of `columns` for `state`.
    static func values(of state: RecordState, appID: Int64?, changeSeq: Int64) -> [DatabaseValue] {
        let fields = state.fields
        return [state.id.rawValue.databaseValue, fields.vault.databaseValue, appID.databaseValue]
            + columnFields.map { sql(fields[$0]) } + [
                newerFieldsBlob(fields.newer).databaseValue, changeSeq.databaseValue,
            ]
    }

    /// The values of `registerColumns` for `state`.
    static func registerValues(of state: RecordState, changeSeq: Int64) -> [DatabaseValue] {
        let fields = state.fields
        return registerFields.map { sql(fields[$0]) } + [
            newerFieldsBlob(fields.newer).databaseValue, changeSeq.databaseValue,
        ]
    }

    /// The `newer_fields` column: their stored form, NULL when there are none.
    private static func newerFieldsBlob(_ fields: NewerFields) -> Data? {
        fields.isEmpty ? nil : Data(fields.storedBytes)
    }

    private static func sql(_ value: FieldValue?) -> DatabaseValue {
        switch value {
        case nil: .null
        case let .integer(integer)?: integer.databaseValue
        case let .text(text)?: text.databaseValue
        }
    }

    /// Reads a row selected with `selection` from `source`.
    /// - Throws: `LedgerError.unreadableDatabase` if the row does not hold a valid record.
    static func decode(_ row: Row, path: String) throws -> RecordState {
        let id: DatabaseValue = row[0]
        do {
            guard case let .string(vault) = (row[1] as DatabaseValue).storage else {
                throw LedgerError.invalidInput(field: "vault_id", reason: "is not a text")
            }
            var fields = RecordFields(vault: vault)
            var position = 2
            for field in columnFields {
                fields[field] = try value(row[position], field.name)
                position += 1
            }
            if let newer = Data.fromDatabaseValue(row[position]) {
                fields.newer = try NewerFields(storedBytes: Array(newer))
            }
            for (offset, field) in [RecordField.appDomain, .appUri, .appScheme].enumerated() {
                fields[field] = try value(row[position + 1 + offset], field.name)
            }
            let state = try RecordState(fields: fields)
            guard String.fromDatabaseValue(id) == state.id.rawValue else {
                throw LedgerError.invalidInput(field: "id", reason: "does not match the record's facts")
            }
            return state
        } catch let error as LedgerError {
            throw LedgerError.unreadableDatabase(
                path: path,
                reason: "record \(String.fromDatabaseValue(id) ?? "?") is malformed (\(error.localizedDescription))"
            )
        }
    }

    private static func value(_ value: DatabaseValue, _ column: String) throws -> FieldValue? {
        switch value.storage {
        case .null: return nil
        case let .int64(integer): return .integer(integer)
        case let .string(text): return .text(text)
        case .double, .blob: throw LedgerError.invalidInput(field: column, reason: "holds a value of the wrong type")
        }
    }
}
