import GRDB

/// The SQL the ledger runs against the `record` and `app` tables, inside a transaction the
/// caller opened. Statements are prepared once per connection (`cachedStatement`).
final class RecordStore {
    private let db: Database
    private let path: String
    /// App rows already resolved in this transaction (a batch usually names few apps).
    private var appIDs: [AppMetadata: Int64] = [:]

    init(_ db: Database, path: String) {
        self.db = db
        self.path = path
    }

    // MARK: - Writing

    private static let insertSQL = """
        INSERT INTO record (\((RecordRow.factColumns + RecordRow.registerColumns).joined(separator: ", ")))
        VALUES (\(Array(repeating: "?", count: RecordRow.factColumns.count + RecordRow.registerColumns.count).joined(separator: ", ")))
        ON CONFLICT (id) DO NOTHING
        """

    private static let updateRegistersSQL = """
        UPDATE record SET \(RecordRow.registerColumns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?
        """

    /// Inserts a record that does not exist yet; returns `false` (and writes nothing) if a
    /// record with its id exists.
    func insertIfAbsent(_ state: RecordState) throws -> Bool {
        let appID = try appID(for: state.facts.value.app)
        let values = RecordRow.factValues(state.facts, appID: appID) + RecordRow.registerValues(state)
        try db.cachedStatement(sql: Self.insertSQL).execute(arguments: StatementArguments(values))
        return db.changesCount > 0
    }

    /// Writes the status, lastCheckedAt and annotation registers of an existing record.
    func updateRegisters(_ state: RecordState) throws {
        let values = RecordRow.registerValues(state) + [state.id.rawValue]
        try db.cachedStatement(sql: Self.updateRegistersSQL).execute(arguments: StatementArguments(values))
    }

    private func appID(for app: AppMetadata?) throws -> Int64? {
        guard let app else { return nil }
        if let id = appIDs[app] { return id }
        let key: StatementArguments = [app.domain ?? "", app.uri ?? "", app.scheme ?? ""]
        try db.cachedStatement(sql: "INSERT INTO app (domain, uri, scheme) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
            .execute(arguments: key)
        let id = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM app WHERE domain = ? AND uri = ? AND scheme = ?"), arguments: key)!
        appIDs[app] = id
        return id
    }

    // MARK: - Reading

    func fetch(id: TransactionID) throws -> RecordState? {
        try fetchAll("SELECT \(RecordRow.selection) FROM \(RecordRow.source) WHERE record.id = ?", [id.rawValue]).first
    }

    /// Records whose hash equals one of `hashes` (the spellings a user may have typed).
    func fetch(hashes: [String]) throws -> [RecordState] {
        let marks = Array(repeating: "?", count: hashes.count).joined(separator: ", ")
        return try fetchAll("""
            SELECT \(RecordRow.selection) FROM \(RecordRow.source)
            WHERE record.tx_hash IN (\(marks)) ORDER BY record.id
            """, StatementArguments(hashes))
    }

    /// Up to `limit` records newest first (`timestamp`, then `id`, descending), after `cursor`.
    func page(vault: String?, includeHidden: Bool, after cursor: PageCursor?, limit: Int) throws -> [RecordState] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let vault {
            conditions.append("record.vault_id = ?")
            arguments += [vault]
        }
        if !includeHidden {
            conditions.append("COALESCE(record.hidden, 0) = 0")
        }
        if let cursor {
            conditions.append("(record.timestamp_ms, record.id) < (?, ?)")
            arguments += [cursor.timestampMillis, cursor.id.rawValue]
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        arguments += [limit]
        return try fetchAll("""
            SELECT \(RecordRow.selection) FROM \(RecordRow.source) \(filter)
            ORDER BY record.timestamp_ms DESC, record.id DESC LIMIT ?
            """, arguments)
    }

    private func fetchAll(_ sql: String, _ arguments: StatementArguments) throws -> [RecordState] {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        var states: [RecordState] = []
        while let row = try rows.next() {
            states.append(try RecordRow.decode(row, path: path))
        }
        return states
    }
}
