import Foundation
import GRDB
import TxLedgerCore

/// The SQL the ledger runs against the `record` and `chain` tables, inside a transaction the
/// caller opened. Statements are prepared once per connection (`cachedStatement`).
///
/// Every row a write transaction changes gets that transaction's `changeSeq`, so that a delta
/// for a peer reads only what changed since the peer last saw this replica (crdt.md).
package final class RecordStore {
    package let db: Database
    package let path: String
    /// The change sequence number of the write transaction (0 for reads).
    package let changeSeq: Int64
    /// Whether this transaction changed anything, i.e. used `changeSeq` (if not, the next
    /// write transaction gets the same number).
    package private(set) var changed = false
    /// Chain numbers already resolved in this transaction.
    private var chainNumbers: [String: Int64] = [:]
    /// Whether `chainNumbers` holds every chain of the file (`rowNumbers`).
    private var chainsRead = false
    /// Vault numbers already ensured in this transaction.
    var vaultNumbers: [String: Int64] = [:]
    /// Clear watermarks read in this transaction (`clear` keeps it current).
    var watermarks: [String: Stamp?] = [:]
    /// The file's tables of texts and replicas that stored frames refer to, as this store
    /// reads them: taken when first needed, and kept current as this transaction adds entries.
    private var tables: FrameTables?
    /// The file's tables as last read from it, shared by a ledger's connections (`Ledger`).
    /// Entries are never changed nor removed, so a store reads only those added since; and it
    /// reads before it adds any of its own, so the shared tables hold only committed entries
    /// (a copy ahead of an older snapshot is harmless: its frames refer to no later entry).
    private let sharedTables: LockedValue<FrameTables>
    /// The encoder of this transaction's rows, with the file's tables.
    private var encoder: FrameEncoder?
    /// Whether a merge's worker holds an encoder (`lendEncoder`).
    private var encoderLent = false
    /// Whether some record names one it replaces (`record.replaced`), once asked; set when this
    /// transaction writes one.
    var holdsReplacements: Bool?
    /// The numbers of the vaults with records in blocks, once asked (`holdsBlocks`).
    var blockVaults: Set<Int64>?
    /// How many records this transaction added (or, negative, took) under each value of the
    /// counted columns, not yet in `record_count` (`writeCounts`).
    var countChanges: [CountedColumns: Int] = [:]

    /// The `record` table's columns this store writes: all of them, but in a migration that
    /// runs before the later ones existed (`RecordRowV7`).
    let columns: [RecordRow.Column]

    package convenience init(
        _ db: Database,
        path: String,
        changeSeq: Int64 = 0,
        tables: LockedValue<FrameTables> = LockedValue(FrameTables())
    ) {
        self.init(db, path: path, changeSeq: changeSeq, tables: tables, columns: RecordRow.Column.allCases)
    }

    init(
        _ db: Database,
        path: String,
        changeSeq: Int64,
        tables: LockedValue<FrameTables>,
        columns: [RecordRow.Column]
    ) {
        self.db = db
        self.path = path
        self.changeSeq = changeSeq
        sharedTables = tables
        self.columns = columns
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

        /// The columns bound to the statement's parameters, in order, of `columns` (the table's).
        func parameters(_ columns: [RecordRow.Column]) -> [RecordRow.Column] {
            switch self {
            case .insert, .upsert: columns
            case .updateRegisters: RecordRow.registerColumns.filter(columns.contains) + [.id]
            }
        }

        func sql(_ columns: [RecordRow.Column]) -> String {
            let names = columns.map(\.rawValue)
            let insert = """
                INSERT INTO record (\(names.joined(separator: ", ")))
                VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))
                """
            switch self {
            case .insert:
                return insert + " ON CONFLICT (id) DO NOTHING"
            case .upsert:
                return insert + " ON CONFLICT (id) DO UPDATE SET "
                    + names.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            case .updateRegisters:
                let set = parameters(columns).dropLast().map { "\($0.rawValue) = ?" }.joined(separator: ", ")
                return "UPDATE record SET \(set) WHERE id = ?"
            }
        }
    }
    /// This transaction's write statements (`RecordWriteStatement`), prepared on first use.
    private var prepared: [Write: RecordWriteStatement] = [:]
    /// Whether GRDB was told that this transaction writes `record` (`execute(_:_:)`).
    private var notified = false

    /// Inserts a record that does not exist yet; returns `false` (and writes nothing) if a
    /// record with its id exists.
    func insertIfAbsent(_ state: RecordState) throws -> Bool {
        try insertIfAbsent(state, frame: try frame(state))
    }

    /// Inserts a record that does not exist yet, stored as `frame`, which an encoder lent by
    /// this store made (`lendEncoder`; the entries it added come first: `addEntries`); returns
    /// `false` (and writes nothing) if a record with its id exists.
    func insertIfAbsent(_ state: RecordState, frame: [UInt8]) throws -> Bool {
        guard try execute(.insert, try rowValues(state, frame: frame, changeSeq: changeSeq)) else { return false }
        changed = true
        return true
    }

    /// Writes a whole record, new or not (facts and registers), as a merge decided it.
    package func save(_ state: RecordState) throws {
        try write(state, changeSeq: changeSeq)
        changed = true
    }

    /// Writes a whole record with the change number `changeSeq` (a migration keeps each row's).
    func write(_ state: RecordState, changeSeq: Int64) throws {
        try execute(.upsert, try rowValues(state, frame: try frame(state), changeSeq: changeSeq))
    }

    /// Writes a whole record, new or not, as a merge's worker made its row
    /// (`rowNumbers(vault:)`), with a frame of the encoder lent to it; the entries that encoder
    /// added come first (`addEntries`).
    package func save(_ row: RecordRow.Values) throws {
        if row.replaced != nil { holdsReplacements = true }
        try execute(.upsert, row)
        changed = true
    }

    /// Writes the row of a record that no row or block held when a merge read its batch, as
    /// the merge's worker made it: inserted without first reading a stored row's counted
    /// columns (those reads were 12% of the writer's samples in an import of 100k into 100k),
    /// and saved as any row if one holds its id after all.
    package func saveNew(_ row: RecordRow.Values) throws {
        guard try execute(.insert, row) else { return try save(row) }
        if row.replaced != nil { holdsReplacements = true }
        changed = true
    }

    /// Writes the registers' columns of a stored record whose facts' columns are unchanged
    /// (`RecordRow.sameFactsColumns`), as a merge's worker made its row; `counted`, the stored
    /// row's counted columns as the merge read them with its batch (`StoredRow.counted`), or
    /// `nil` to read them now.
    package func saveRegisters(_ row: RecordRow.Values, counted: CountedColumns? = nil) throws {
        try execute(.updateRegisters, row, counted: counted)
        changed = true
    }

    /// What a merge's worker needs to make the rows of `vault` itself (`RecordRow.values`):
    /// the vault's number, the numbers of the file's chains (a chain new to it is left to the
    /// store: `save(_:frame:)`), this transaction's change number and the vault's watermark.
    package func rowNumbers(vault: String) throws -> RowNumbers {
        if !chainsRead {
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT id, num FROM chain")) {
                chainNumbers[row[0]] = row[1]
            }
            chainsRead = true
        }
        return RowNumbers(
            vault: try ensureVault(vault),
            chains: chainNumbers,
            changeSeq: changeSeq,
            watermark: try cachedWatermark(vault)
        )
    }

    /// Writes a whole record, new or not, as `frame`, which the encoder lent to a merge's
    /// worker made; the entries it added come first (`addEntries`).
    package func save(_ state: RecordState, frame: [UInt8]) throws {
        try save(try row(state, frame: frame))
    }

    /// The row of `state` stored as `frame`, which the encoder lent to a merge's worker made,
    /// with this transaction's change number (a chain new to the file numbered first).
    package func row(_ state: RecordState, frame: [UInt8]) throws -> RecordRow.Values {
        try rowValues(state, frame: frame, changeSeq: changeSeq)
    }

    /// An encoder for a worker (`FrameWorker`) to encode frames with while this store writes
    /// them (`save(_:)`, `insertIfAbsent(_:frame:)`), with the entries it adds (`addEntries`). Until `endLending()`, this
    /// store encodes nothing itself, so that no two encoders number new entries.
    package func lendEncoder() throws -> FrameEncoder {
        precondition(!encoderLent, "one encoder is lent at a time")
        let lent = try FrameEncoder(stored: frameTables())
        encoder = nil
        encoderLent = true
        return lent
    }

    /// The lent encoder is no longer used. This store's own starts again from the tables as
    /// written, so that entries a failed merge's worker numbered but this store never wrote
    /// are forgotten.
    package func endLending() {
        encoderLent = false
        encoder = nil
    }

    /// Writes the status, lastCheckedAt and annotation registers of an existing record.
    package func updateRegisters(_ state: RecordState) throws {
        try execute(.updateRegisters, try rowValues(state, frame: try frame(state), changeSeq: changeSeq))
        changed = true
    }

    /// Deletes the record with this id from this file.
    package func remove(_ id: TransactionID) throws {
        try thaw(id)
        guard let counted = try countedColumns(ofRow: id) else { return }
        try db.execute(sql: "DELETE FROM record WHERE id = ?", arguments: [Data(id.bytes)])
        count(counted, -1)
    }

    private func rowValues(_ state: RecordState, frame: [UInt8], changeSeq: Int64) throws -> RecordRow.Values {
        if state.replacedID != nil { holdsReplacements = true }
        let facts = state.facts.value
        return RecordRow.values(
            of: state,
            frame: frame,
            vault: try ensureVault(facts.vaultId),
            chain: try chainNumber(facts.chain.id),
            erased: try isErased(state),
            changeSeq: changeSeq
        )
    }

    /// The stored frame of `state`; the entries it adds to the file's tables are written first.
    private func frame(_ state: RecordState) throws -> [UInt8] {
        precondition(!encoderLent, "frames are encoded by the worker the encoder is lent to")
        var encoder = try self.encoder ?? FrameEncoder(stored: frameTables())
        let frame = encoder.frame(state)
        let added = encoder.takeAddedEntries()
        self.encoder = encoder
        try addEntries(added)
        return frame
    }

    /// Writes the entries an encoder added to the file's tables, in order, so that they take
    /// the numbers the encoder gave them.
    package func addEntries(_ added: FrameEncoder.AddedEntries) throws {
        guard !added.texts.isEmpty || !added.replicas.isEmpty else { return }
        var tables = try frameTables()
        for text in added.texts {
            tables.texts.add(text)
            try db.cachedStatement(sql: "INSERT INTO frame_text (num, value) VALUES (?, ?)")
                .execute(arguments: [tables.texts.entries.count, text])
        }
        for replica in added.replicas {
            try db.cachedStatement(sql: "INSERT INTO frame_replica (num, id) VALUES (?, ?)")
                .execute(arguments: [tables.replicas.count, replica.rawValue])
            tables.replicas.append(replica)
        }
        try db.cachedStatement(sql: "UPDATE ledger_meta SET frame_texts = ?, frame_replicas = ? WHERE id = 1")
            .execute(arguments: [tables.texts.entries.count, tables.replicas.count])
        self.tables = tables
    }

    /// The file's tables (`frame_text`, `frame_replica`): the shared ones with the entries
    /// added since they were last read, once per transaction. A merge's worker decodes this
    /// transaction's rows with them.
    /// - Throws: `LedgerError.unreadableDatabase` if they are not numbered in order or exceed
    ///   their limits.
    package func frameTables() throws -> FrameTables {
        if let tables { return tables }
        let tables = try sharedTables.update { shared in
            try readEntries(after: &shared)
            return shared
        }
        self.tables = tables
        return tables
    }

    /// Appends to `tables` the entries the file holds beyond them, and checks that they are at
    /// least as many as `ledger_meta` counts (shared tables read by a newer snapshot may hold
    /// more), so that an entry lost from the end is never taken by the next text added.
    private func readEntries(after tables: inout FrameTables) throws {
        func damaged(_ reason: String) -> LedgerError { .unreadableDatabase(path: path, reason: reason) }
        let texts = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT num, value FROM frame_text WHERE num > ? ORDER BY num"),
            arguments: [tables.texts.entries.count]
        )
        while let row = try texts.next() {
            guard let text = String.fromDatabaseValue(row[1]), row[0] == tables.texts.entries.count + 1,
                tables.texts.index(of: text) == nil, tables.texts.hasRoom(for: text)
            else { throw damaged("the table of stored texts is damaged at entry \(tables.texts.entries.count + 1)") }
            tables.texts.add(text)
        }
        let replicas = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT num, id FROM frame_replica WHERE num >= ? ORDER BY num"),
            arguments: [tables.replicas.count]
        )
        while let row = try replicas.next() {
            guard row[0] == tables.replicas.count, let id = Int64.fromDatabaseValue(row[1]), id >= 0,
                tables.replicas.count < FrameDecoder.maxReplicas
            else { throw damaged("the table of stored replicas is damaged at entry \(tables.replicas.count)") }
            tables.replicas.append(ReplicaID(rawValue: id))
        }
        let counts = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT frame_texts, frame_replicas FROM ledger_meta WHERE id = 1")
        )
        guard let counts, counts[0] <= tables.texts.entries.count, counts[1] <= tables.replicas.count else {
            throw damaged("its tables of stored texts and replicas do not hold the entries it counts")
        }
    }

    /// Whether `state` is hidden by its vault's clear watermark (its facts are not later).
    func isErased(_ state: RecordState) throws -> Bool {
        !state.isVisible(clearedThrough: try cachedWatermark(state.facts.value.vaultId))
    }

    /// Writes `values` with `write`; returns whether a row was written (an insert of an id
    /// that is there writes none).
    /// - Parameter counted: the stored row's counted columns, if the caller read them (a
    ///   merge reads them with its batch); else they are read by id here.
    @discardableResult
    private func execute(_ write: Write, _ values: RecordRow.Values, counted: CountedColumns? = nil) throws -> Bool {
        // A record kept in a block is a row again before it is written.
        if try holdsBlocks(values.vault) { try thaw(values.id) }
        let statement = try prepared[write] ?? RecordWriteStatement(db, sql: write.sql(columns))
        prepared[write] = statement
        // A new row is counted if it was written; a stored one moves from its old columns.
        let old = write == .insert ? nil : try counted ?? countedColumns(ofRow: values.id)
        let wrote = try statement.execute(write.parameters(columns), of: values)
        if let old {
            count(old, -1)
            count(write == .upsert ? CountedColumns(values) : old.withRegisters(of: values), 1)
        } else if write != .updateRegisters && wrote {
            count(CountedColumns(values), 1)
        }
        if !notified {
            // The statement runs through the C API, which GRDB does not see: its observations
            // (`Ledger.observe`) learn of the change from this, at the commit.
            try db.notifyChanges(in: Table("record"))
            notified = true
        }
        return wrote
    }

    /// The number of chain `id` in this file (the `chain` table), added if it is new.
    private func chainNumber(_ id: String) throws -> Int64 {
        if let number = chainNumbers[id] { return number }
        try db.cachedStatement(sql: "INSERT INTO chain (id) VALUES (?) ON CONFLICT DO NOTHING").execute(arguments: [id])
        let number = try Int64.fetchOne(db.cachedStatement(sql: "SELECT num FROM chain WHERE id = ?"), arguments: [id])!
        chainNumbers[id] = number
        return number
    }

    // MARK: - Reading

    /// The visible record with this id.
    package func fetch(id: TransactionID) throws -> RecordState? {
        try fetchAll(RecordQuery.stored(where: "record.id = ? AND \(RecordRow.isVisible)", [Data(id.bytes)])).first
    }

    /// The stored state with this id, visible or erased by a clear (for merges).
    package func fetchStored(id: TransactionID) throws -> RecordState? {
        try fetchAll(RecordQuery.stored(where: "record.id = ?", [Data(id.bytes)])).first
    }

    /// The stored states with these ids (visible or erased by a clear), by id, in one query.
    package func fetchStored(ids: [TransactionID]) throws -> [TransactionID: RecordState] {
        var states: [TransactionID: RecordState] = [:]
        let tables = try frameTables()
        for row in try fetchStoredRows(ids: ids) {
            let state = try row.decode(tables: tables, path: path)
            states[state.id] = state
        }
        return states
    }

    /// The rows of the stored states with these ids, not decoded: one query for a batch of a
    /// merge, whose worker decodes them. `rowsOnly` leaves blocks out: a load (`BlockLoad`)
    /// writes blocks whose ids are not in the directory until it ends. Blocks are left out too
    /// when no vault has any: their arm costs a second temporary index of the ids and a lookup
    /// of each in the virtual table.
    package func fetchStoredRows(ids: [TransactionID], rowsOnly: Bool = false) throws -> [StoredRow] {
        guard !ids.isEmpty else { return [] }
        let rowsOnly = try rowsOnly || !holdsAnyBlock()
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        let query = RecordQuery(
            select:
                "\(RecordRow.selection), record.change_seq, "
                + "record.vault, record.chain, record.kind, record.status, record.hidden, record.erased",
            where: "record.id IN (\(marks))",
            rowsOnly: rowsOnly
        )
        // The ids bound in place through the C API: GRDB's arguments made and checked a `Data`
        // of each, for each arm (56 of the writer's samples in one `perf` of an import).
        return try RecordWriteStatement(db, sql: query.sql).storedRows(ids: ids, arms: rowsOnly ? 1 : 2)
    }

    /// Every stored state of `vault` changed after the change sequence number `since`.
    package func fetchStored(vault: String, changedAfter since: Int64) throws -> [RecordState] {
        var states: [RecordState] = []
        try forEachStored(vault: vault, changedAfter: since) { state, _ in states.append(state) }
        return states
    }

    /// The rows of the vault whose id is the first argument that changed after the change
    /// sequence number that is the second: a delta's, or every row for 0.
    private static let changedInVault = changed(full: false)

    /// `changedInVault`, with its change condition left to the rows (`full`: a unary `+` keeps
    /// SQLite from reading it through `record_by_vault_change`).
    private static func changed(full: Bool) -> String {
        "record.vault = (SELECT num FROM vault WHERE id = ?) AND \(full ? "+" : "")record.change_seq > ?"
    }

    /// `columns` of the records of `changedInVault` in history order: a delta's rows through
    /// `record_by_vault_change` (then sorted: few rows), every row (`full`) through
    /// `record_by_vault_time`, which gives the order (the change index would sort the whole
    /// vault); a block's records in their blocks' order.
    static func changedInVaultInHistoryOrder(
        _ columns: String,
        from source: RecordQuery.Source,
        vault: String,
        since: Int64
    ) -> RecordQuery {
        RecordQuery(
            select: columns,
            from: source,
            where: changed(full: since == 0),
            [vault, since],
            tail: "ORDER BY record.time, record.id"
        )
    }

    /// Calls `body` with each stored state of `vault` changed after `since`, in history order
    /// (`time`, then id: the order of a change set), reading one row at a time, and the bytes of
    /// its stored frame.
    package func forEachStored(
        vault: String,
        changedAfter since: Int64,
        _ body: (_ state: RecordState, _ frameBytes: Int) throws -> Void
    ) throws {
        let query = Self.changedInVaultInHistoryOrder(
            RecordRow.selection,
            from: .recordAndVault,
            vault: vault,
            since: since
        )
        try forEachWithFrameBytes(query.sql, query.arguments, body)
    }

    /// Calls `body` with the stored frame and `time` of each record of `vault` changed after
    /// `since`, in history order, and the file's tables they refer to, without decoding the records
    /// (an export transcodes them: `PayloadEncoder.encode(stored:timestamp:tables:)`).
    /// - Throws: `LedgerError.unreadableDatabase` for a row whose frame or time is not of its
    ///   type, or whose frame `body` finds malformed (`BundleError.malformedContent`).
    package func forEachStoredFrame(
        vault: String,
        changedAfter since: Int64,
        _ body: (_ frame: [UInt8], _ time: Int64, _ tables: FrameTables) throws -> Void
    ) throws {
        let tables = try frameTables()
        let query = Self.storedFramesQuery(vault: vault, since: since)
        let rows = try Row.fetchCursor(db.cachedStatement(sql: query.sql), arguments: query.arguments)
        while let row = try rows.next() {
            func malformed(_ reason: String) -> LedgerError {
                RecordRow.malformed(RecordRow.blob(row[0]).flatMap { TransactionID(bytes: $0) }, reason, path: path)
            }
            guard let frame = RecordRow.blob(row[1]), let time = Int64.fromDatabaseValue(row[2]) else {
                throw malformed("its state or time is not of its type")
            }
            do {
                try body(Array(frame), time, tables)
            } catch let error as BundleError where error.code == .malformedContent {
                throw malformed(error.reason ?? "")
            }
        }
    }

    /// The id, frame and time of `vault`'s records changed after `since`, or of all of them
    /// (0), in history order (bundle-format.md, "Payload").
    static func storedFramesQuery(vault: String, since: Int64) -> RecordQuery {
        changedInVaultInHistoryOrder("record.id, record.state, record.time", from: .record, vault: vault, since: since)
    }

    /// How many stored states of `vault` changed after `since`.
    package func countStored(vault: String, changedAfter since: Int64) throws -> Int {
        let (sql, arguments) = RecordQuery.count(where: Self.changedInVault, [vault, since])
        return try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0
    }

    /// Visible sends and swaps whose hash is one of `hashes` (spellings a user may have typed),
    /// in id order. Their ids are derived from (vault, chain, hash): every vault and chain this
    /// file holds is tried with every spelling that is a hash of that chain.
    package func fetch(hashes: [String]) throws -> [RecordState] {
        let vaults = try String.fetchAll(db, sql: "SELECT id FROM vault")
        let chains = try String.fetchAll(db, sql: "SELECT id FROM chain").compactMap { try? Chain(parsing: $0) }
        var ids: Set<TransactionID> = []
        for vault in vaults {
            for chain in chains {
                for hash in hashes {
                    if let id = try? TransactionID.forTransaction(vault: vault, chain: chain, hash: hash) {
                        ids.insert(id)
                    }
                }
            }
        }
        var found: [RecordState] = []
        for state in try fetchStored(ids: Array(ids)).values where state.facts.value.kind != .signature {
            if state.isVisible(clearedThrough: try cachedWatermark(state.facts.value.vaultId)) { found.append(state) }
        }
        return found.sorted { $0.id < $1.id }
    }

    private func fetchAll(_ query: RecordQuery) throws -> [RecordState] {
        var states: [RecordState] = []
        try forEach(query) { states.append($0) }
        return states
    }

    /// Calls `body` with each record `query` selects (`RecordRow.selection`), one row at a time.
    func forEach(_ query: RecordQuery, _ body: (RecordState) throws -> Void) throws {
        try forEach(query.sql, query.arguments, body)
    }

    func forEach(_ sql: String, _ arguments: StatementArguments, _ body: (RecordState) throws -> Void) throws {
        try forEachWithFrameBytes(sql, arguments) { state, _ in try body(state) }
    }

    /// Calls `body` with each record `sql` selects (`RecordRow.selection`), one row at a time,
    /// and the bytes of the frame it was decoded from.
    func forEachWithFrameBytes(
        _ sql: String,
        _ arguments: StatementArguments,
        _ body: (_ state: RecordState, _ frameBytes: Int) throws -> Void
    ) throws {
        let statement = try db.cachedStatement(sql: sql)
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        while try rows.next() != nil {
            let row = StoredRow(statement)
            try body(try row.decode(tables: try frameTables(), path: path), row.frameBytes)
        }
    }
}
