/// The raw SQLite baselines: the record rows of one ledger file written into another with one
/// prepared statement, in id order (the rows as the ledger wrote them, its layout's limit).
/// Reading the rows is not timed.
enum RawBaseline {
    enum Write {
        /// `INSERT`, all rows in one transaction.
        case insert
        /// `INSERT`, one transaction per row.
        case insertEach
        /// `INSERT ... ON CONFLICT (id) DO UPDATE` of every column, in one transaction.
        case upsert
    }

    /// Seconds to write every record row of the ledger at `source` into the ledger at `target`.
    static func seconds(copying source: String, into target: String, _ write: Write) async throws -> Double {
        let from = try RawSQLite(path: source)
        let to = try RawSQLite(path: target)
        // Every column but the row number, which the target gives.
        let columns = try from.columns(of: "record").filter { $0 != "num" }
        let rows = try from.rows("SELECT \(columns.joined(separator: ", ")) FROM record ORDER BY id")
        var sql =
            "INSERT INTO record (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
        if case .upsert = write {
            sql +=
                " ON CONFLICT (id) DO UPDATE SET "
                + columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        }
        let perRow = if case .insertEach = write { true } else { false }
        return try await Stopwatch.seconds { try to.write(rows, sql: sql, transactionPerRow: perRow) }
    }
}
