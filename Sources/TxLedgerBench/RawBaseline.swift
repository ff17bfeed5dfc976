/// The raw SQLite baselines: the record rows of one ledger file written into another with one
/// prepared statement (the rows as the ledger wrote them, its layout's limit), in id order or
/// in the order the ledger wrote them. Reading the rows is not timed.
enum RawBaseline {
    enum Write {
        /// `INSERT`, all rows in one transaction, in id order.
        case insert
        /// `INSERT`, a transaction per `rows` rows, in the order the ledger wrote them: what a
        /// series of `record` calls of that many records each writes.
        case insertBatches(rows: Int)
        /// `INSERT`, one transaction per row.
        case insertEach
        /// `INSERT ... ON CONFLICT (id) DO UPDATE` of the registers' columns (every column but
        /// `factsColumns`, which a merge of one record's states does not change: the best write
        /// of this layout), in one transaction, in id order.
        case upsert
    }

    /// The columns of a record's row that derive from its facts (Specs/schema.md, `record`):
    /// an update of a stored record whose facts are unchanged leaves them, and the indexes on
    /// them, as they are.
    static let factsColumns: Set = ["id", "vault", "time", "kind", "chain", "replaced"]

    /// Seconds to read every record row of the ledger at `path` in id order, with one prepared
    /// statement: what an export of its whole vault reads.
    static func readSeconds(of path: String) async throws -> Double {
        let database = try RawSQLite(path: path)
        return try await Stopwatch.seconds { _ = try database.rows("SELECT id, state, time FROM record ORDER BY id") }
    }

    /// Seconds to write every record row of the ledger at `source` into the ledger at `target`.
    static func seconds(copying source: String, into target: String, _ write: Write) async throws -> Double {
        let from = try RawSQLite(path: source)
        let to = try RawSQLite(path: target)
        // Every column but the row number, which the target gives.
        let columns = try from.columns(of: "record").filter { $0 != "num" }
        let order = if case .insertBatches = write { "num" } else { "id" }
        let rows = try from.rows("SELECT \(columns.joined(separator: ", ")) FROM record ORDER BY \(order)")
        var sql =
            "INSERT INTO record (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
        if case .upsert = write {
            sql +=
                " ON CONFLICT (id) DO UPDATE SET "
                + columns.filter { !factsColumns.contains($0) }.map { "\($0) = excluded.\($0)" }
                .joined(separator: ", ")
        }
        let rowsPerTransaction =
            switch write {
            case .insert, .upsert: max(rows.count, 1)
            case let .insertBatches(batch): batch
            case .insertEach: 1
            }
        return try await Stopwatch.seconds { try to.write(rows, sql: sql, rowsPerTransaction: rowsPerTransaction) }
    }
}
