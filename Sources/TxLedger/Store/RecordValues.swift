import GRDB

/// A record's column values by position, in the order of `columns`: what a `record` row (with
/// its app) or a bundle frame holds, before `RecordRow.validated` makes a record of it. Reading by
/// position, not by name, keeps decoding cheap on the hot paths (merge, import, export, pages).
struct RecordValues {
    /// The `record` table's fact and register columns, then the app's.
    static let columns = RecordRow.factColumns + RecordRow.registerColumns + ["app_domain", "app_uri", "app_scheme"]
    private static let positions = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })

    private var values: [DatabaseValue]

    /// All NULL.
    init() {
        values = Array(repeating: .null, count: Self.columns.count)
    }

    /// A row selected with `RecordRow.selection` (its columns are `columns`, in order).
    init(_ row: Row) {
        values = (0..<Self.columns.count).map { row[$0] as DatabaseValue }
    }

    /// The position of `column`, which must be one of `columns`.
    static func position(_ column: String) -> Int {
        guard let position = positions[column] else { preconditionFailure("\(column) is not a record column") }
        return position
    }

    subscript(position position: Int) -> DatabaseValue {
        get { values[position] }
        set { values[position] = newValue }
    }

    subscript(column: String) -> DatabaseValue {
        get { values[Self.position(column)] }
        set { values[Self.position(column)] = newValue }
    }

    /// The value of `column` as a `T`, `nil` if it is NULL.
    /// - Throws: `LedgerError.invalidInput` if it holds another type (a corrupt row).
    func value<T: DatabaseValueConvertible>(_ column: String, as type: T.Type = T.self) throws -> T? {
        let value = self[column]
        if value.isNull { return nil }
        guard let converted = T.fromDatabaseValue(value) else {
            throw LedgerError.invalidInput(field: column, reason: "holds a value of the wrong type")
        }
        return converted
    }
}
