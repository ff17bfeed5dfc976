import TxLedgerCore
import TxLedgerStore

extension RecordStore {
    /// The header of a change set of `vault` from this replica, covering its changes after
    /// `since`: with the epochs from the one holding `since` (or, for a full change set, the one
    /// holding `through`), and the epoch of each knowledge entry. When more epochs than a
    /// reader accepts have passed since `since` (more than 65536 processes wrote), the change
    /// set is a full one instead: the caller reads its records after `header.since`.
    package func changeSetHeader(_ vault: String, since: Int64) throws -> ChangeSetHeader {
        let through = try LedgerMeta.seq(db)
        let held = try self.held(vault)
        var since = since
        var lineage = try epochs(from: since > 0 ? since : through)
        if lineage.count > ChangeSetHeader.maxEpochs {
            since = 0
            lineage = try epochs(from: through)
        }
        // Only a file edited by hand has epochs that start after its last change.
        guard lineage.count <= ChangeSetHeader.maxEpochs else {
            throw LedgerError.unreadableDatabase(path: path, reason: "its table of epochs is damaged")
        }
        return ChangeSetHeader(
            vaultId: vault,
            origin: try LedgerMeta.replicaID(db),
            since: since,
            through: through,
            knowledge: held.mapValues(\.seq),
            knowledgeEpochs: held.compactMapValues(\.epoch),
            lineage: lineage,
            clearedThrough: try watermark(vault).stamp
        )
    }
}
