/// The raw SQLite baselines: the record rows of one ledger file written into another with one
/// prepared statement. Reading the rows, and adding the apps they refer to, is not timed.
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
        let columns = try from.columns(of: "record")
        var rows = try from.rows("SELECT \(columns.joined(separator: ", ")) FROM record ORDER BY rowid")
        try remapApps(&rows, appColumn: columns.firstIndex(of: "app_id")!, from: from, to: to)
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

    /// Points `app_id` at the target's row for the same app, adding the apps it lacks.
    private static func remapApps(
        _ rows: inout [[RawSQLite.Value]],
        appColumn: Int,
        from: RawSQLite,
        to: RawSQLite
    ) throws {
        var targetIDs: [Int64: Int64] = [:]
        for app in try from.rows("SELECT id, domain, uri, scheme FROM app") {
            guard case let .integer(id) = app[0], case let .text(domain) = app[1], case let .text(uri) = app[2],
                case let .text(scheme) = app[3]
            else { continue }
            let key = [domain, uri, scheme].map { "'\($0.replacingOccurrences(of: "'", with: "''"))'" }.joined(
                separator: ", "
            )
            try to.execute("INSERT INTO app (domain, uri, scheme) VALUES (\(key)) ON CONFLICT DO NOTHING")
            let found = try to.rows("SELECT id FROM app WHERE (domain, uri, scheme) = (\(key))")
            if case let .integer(targetID) = found.first?.first { targetIDs[id] = targetID }
        }
        for index in rows.indices {
            if case let .integer(id) = rows[index][appColumn], let mapped = targetIDs[id] {
                rows[index][appColumn] = .integer(mapped)
            }
        }
    }
}
