import GRDB

/// The SQL the ledger runs against the `record` and `app` tables, inside a transaction the
/// caller opened. Statements are prepared once per connection (`cachedStatement`).
///
/// Every row a write transaction changes gets that transaction's `changeSeq`, so that a delta
/// for a peer reads only what changed since the peer last saw this replica (crdt.md).
final class RecordStore {
    let db: Database
    private let path: String
    /// The change sequence number of the write transaction (0 for reads).
    let changeSeq: Int64
    /// Whether this transaction changed anything, i.e. used `changeSeq`.
    private(set) var changed = false
    /// App rows already resolved in this transaction (a batch usually names few apps).
    private var appIDs: [AppMetadata: Int64] = [:]
    /// Vault rows already ensured in this transaction.
    var ensuredVaults: Set<String> = []
    /// Clear watermarks read in this transaction (`clear` keeps it current).
    var watermarks: [String: Stamp?] = [:]

    init(_ db: Database, path: String, changeSeq: Int64 = 0) {
        self.db = db
        self.path = path
        self.changeSeq = changeSeq
    }

    /// Notes that this transaction changes the ledger.
    func markChanged() { changed = true }

    // MARK: - Writing

    /// The statements that write a record, prepared once per transaction.
    private enum Write {
        /// A new record; nothing if its id exists.
        case insert
        /// A whole record, new or not.
        case upsert
        /// The status, lastCheckedAt and annotation registers (and newer fields) of an existing record.
        case updateRegisters

        var sql: String {
            let insert = """
                INSERT INTO record (\(RecordRow.columns.joined(separator: ", ")))
                VALUES (\(Array(repeating: "?", count: RecordRow.columns.count).joined(separator: ", ")))
                """
            switch self {
            case .insert:
                return insert + " ON CONFLICT (id) DO NOTHING"
            case .upsert:
                return insert + " ON CONFLICT (id) DO UPDATE SET "
                    + RecordRow.columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            case .updateRegisters:
                return
                    "UPDATE record SET \(RecordRow.registerColumns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?"
            }
        }
    }
    private var prepared: [Write: Statement] = [:]

    /// Inserts a record that does not exist yet; returns `false` (and writes nothing) if a
    /// record with its id exists.
    func insertIfAbsent(_ state: RecordState) throws -> Bool {
        try execute(.insert, try rowValues(state))
        guard db.changesCount > 0 else { return false }
        changed = true
        try ensureVault(state.facts.value.vaultId)
        return true
    }

    /// Writes a whole record, new or not (facts and registers), as a merge decided it.
    func save(_ state: RecordState) throws {
        try execute(.upsert, try rowValues(state))
        changed = true
        try ensureVault(state.facts.value.vaultId)
    }

    /// Writes the status, lastCheckedAt and annotation registers of an existing record.
    func updateRegisters(_ state: RecordState) throws {
        try execute(
            .updateRegisters,
            RecordRow.registerValues(of: state, changeSeq: changeSeq) + [state.id.rawValue.databaseValue]
        )
        changed = true
    }

    private func rowValues(_ state: RecordState) throws -> [DatabaseValue] {
        RecordRow.values(of: state, appID: try appID(for: state.facts.value.app), changeSeq: changeSeq)
    }

    private func execute(_ write: Write, _ values: [DatabaseValue]) throws {
        let statement = try prepared[write] ?? db.cachedStatement(sql: write.sql)
        prepared[write] = statement
        try statement.execute(binding: values)
    }

    private func appID(for app: AppMetadata?) throws -> Int64? {
        guard let app else { return nil }
        if let id = appIDs[app] { return id }
        let key: StatementArguments = [app.domain ?? "", app.uri ?? "", app.scheme ?? ""]
        try db.cachedStatement(sql: "INSERT INTO app (domain, uri, scheme) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
            .execute(arguments: key)
        let id = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM app WHERE domain = ? AND uri = ? AND scheme = ?"),
            arguments: key
        )!
        appIDs[app] = id
        return id
    }

    // MARK: - Reading

    /// The visible record with this id.
    func fetch(id: TransactionID) throws -> RecordState? {
        try fetchAll(
            """
            SELECT \(RecordRow.selection) FROM \(RecordRow.visibleSource) WHERE record.id = ? AND \(RecordRow.isVisible)
            """,
            [id.rawValue]
        ).first
    }

    /// The stored state with this id, visible or erased by a clear (for merges).
    func fetchStored(id: TransactionID) throws -> RecordState? {
        try fetchAll("SELECT \(RecordRow.selection) FROM \(RecordRow.source) WHERE record.id = ?", [id.rawValue]).first
    }

    /// The stored states with these ids (visible or erased by a clear), by id: one query for
    /// a batch of a merge.
    func fetchStored(ids: [TransactionID]) throws -> [TransactionID: RecordState] {
        guard !ids.isEmpty else { return [:] }
        var states: [TransactionID: RecordState] = [:]
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        try forEach(
            "SELECT \(RecordRow.selection) FROM \(RecordRow.source) WHERE record.id IN (\(marks))",
            StatementArguments(ids.map(\.rawValue))
        ) { states[$0.id] = $0 }
        return states
    }

    /// Every stored state of `vault` changed after the change sequence number `since`.
    func fetchStored(vault: String, changedAfter since: Int64) throws -> [RecordState] {
        var states: [RecordState] = []
        try forEachStored(vault: vault, changedAfter: since) { states.append($0) }
        return states
    }

    /// Calls `body` with each stored state of `vault` changed after `since`, in id order,
    /// reading one row at a time.
    func forEachStored(vault: String, changedAfter since: Int64, _ body: (RecordState) throws -> Void) throws {
        try forEach(
            """
            SELECT \(RecordRow.selection) FROM \(RecordRow.source)
            WHERE record.vault_id = ? AND record.change_seq > ? ORDER BY record.id
            """,
            [vault, since],
            body
        )
    }

    /// How many stored states of `vault` changed after `since`.
    func countStored(vault: String, changedAfter since: Int64) throws -> Int {
        try Int.fetchOne(
            db,
            sql: "SELECT COUNT(*) FROM record WHERE vault_id = ? AND change_seq > ?",
            arguments: [vault, since]
        ) ?? 0
    }

    /// Visible records whose hash equals one of `hashes` (the spellings a user may have typed).
    func fetch(hashes: [String]) throws -> [RecordState] {
        let marks = Array(repeating: "?", count: hashes.count).joined(separator: ", ")
        return try fetchAll(
            """
            SELECT \(RecordRow.selection) FROM \(RecordRow.visibleSource)
            WHERE record.tx_hash IN (\(marks)) AND \(RecordRow.isVisible) ORDER BY record.id
            """,
            StatementArguments(hashes)
        )
    }

    private func fetchAll(_ sql: String, _ arguments: StatementArguments) throws -> [RecordState] {
        var states: [RecordState] = []
        try forEach(sql, arguments) { states.append($0) }
        return states
    }

    func forEach(_ sql: String, _ arguments: StatementArguments, _ body: (RecordState) throws -> Void) throws {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        while let row = try rows.next() {
            try body(try RecordRow.decode(row, path: path))
        }
    }
}
