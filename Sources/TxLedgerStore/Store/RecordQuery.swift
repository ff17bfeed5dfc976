import GRDB

/// A read of records wherever they are kept: a row of `record`, or a block (`record_cold`,
/// which has `record`'s columns: Specs/schema.md, "Record blocks"). The same `SELECT` runs on
/// each, as the two arms of one `UNION ALL`, with its arguments given to each; `tail` (an
/// `ORDER BY` of selected columns, a `LIMIT`) applies to the whole, so that SQLite merges the
/// arms, each read in its own order (queries.md, "Indexes"), and stops at the limit.
struct RecordQuery {
    /// What the arms read: the record alone, or joined to its vault (`vault.id`).
    enum Source {
        case record
        case recordAndVault
    }

    let sql: String
    let arguments: StatementArguments

    init(
        select columns: String,
        from source: Source = .recordAndVault,
        where conditions: String,
        _ arguments: StatementArguments = [],
        tail: String = "",
        _ tailArguments: StatementArguments = [],
        rowsOnly: Bool = false
    ) {
        func arm(_ table: String) -> String {
            let joined = source == .recordAndVault ? " JOIN vault ON vault.num = record.vault" : ""
            return "SELECT \(columns) FROM \(table)\(joined) WHERE \(conditions)"
        }
        let arms = rowsOnly ? arm("record") : arm("record") + " UNION ALL " + arm("record_cold AS record")
        sql = arms + (tail.isEmpty ? "" : " " + tail)
        self.arguments = (rowsOnly ? arguments : arguments + arguments) + tailArguments
    }

    /// The records of `RecordRow.selection` that meet `conditions`.
    static func stored(
        where conditions: String,
        _ arguments: StatementArguments = [],
        tail: String = "",
        _ tailArguments: StatementArguments = []
    ) -> RecordQuery {
        RecordQuery(select: RecordRow.selection, where: conditions, arguments, tail: tail, tailArguments)
    }

    /// How many records meet `conditions`.
    static func count(where conditions: String, _ arguments: StatementArguments) -> (String, StatementArguments) {
        let query = RecordQuery(select: "1", from: .record, where: conditions, arguments)
        return ("SELECT COUNT(*) FROM (\(query.sql))", query.arguments)
    }
}
