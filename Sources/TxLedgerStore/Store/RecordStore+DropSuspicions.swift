import Foundation
import GRDB
import TxLedgerCore

/// The file's local notes of inferences not yet written (schema.md, `drop_suspicion`): when a
/// status check first saw a record's nonce used by another transaction. They are never synced,
/// and go with their record.
extension RecordStore {
    /// When a check first saw `id`'s nonce used, if one did and no answer disagreed since.
    func dropSuspicion(_ id: TransactionID) throws -> Date? {
        try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT since_ms FROM drop_suspicion
                    WHERE record = (SELECT num FROM record WHERE id = ?)
                    """
            ),
            arguments: [Data(id.bytes)]
        ).map(Date.init(millis:))
    }

    func noteDropSuspicion(_ id: TransactionID, since: Date) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO drop_suspicion (record, since_ms) SELECT num, ? FROM record WHERE id = ?
                ON CONFLICT DO NOTHING
                """
        ).execute(arguments: [since.millis, Data(id.bytes)])
    }

    func forgetDropSuspicion(_ id: TransactionID) throws {
        try db.cachedStatement(
            sql: "DELETE FROM drop_suspicion WHERE record = (SELECT num FROM record WHERE id = ?)"
        ).execute(arguments: [Data(id.bytes)])
    }

    /// The visible records of `vault` (or every vault) whose failure was inferred at or after
    /// `since`, newest first, with the time of the inference: the ones a status check looks at
    /// again.
    package func inferredFailures(vault: String?, since: Date) throws -> [(record: TransactionRecord, inferredAt: Date)]
    {
        var found: [(TransactionRecord, Date)] = []
        // Every vault's, through the small partial index; a vault's rows are picked here, since
        // with a vault SQLite would rather walk that vault's time index.
        try forEach(Self.inferredFailuresQuery, []) { state in
            if let inferred = state.status.inferred, inferred.stamp.millis >= since.millis,
                vault == nil || state.facts.value.vaultId == vault
            {
                found.append((state.record, Date(millis: inferred.stamp.millis)))
            }
        }
        return found
    }

    /// The rows failed by inference (`status` 4), newest first, through `record_inferred`.
    static let inferredFailuresQuery = """
        SELECT \(RecordRow.selection) FROM \(RecordRow.source)
        WHERE record.status = 4 AND \(RecordRow.isVisible) ORDER BY record.time DESC
        """
}
