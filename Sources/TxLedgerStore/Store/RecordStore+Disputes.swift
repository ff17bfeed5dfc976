import Foundation
import GRDB
import TxLedgerCore

/// The records a status check looks at beyond the pending ones (crdt.md, "Outcomes the chain
/// settles"): those whose outcome devices dispute, and, for `refresh --verify`, the recent
/// ones whose outcome a device said.
extension RecordStore {
    /// The visible disputed records of `vault` (or every vault), newest first, through the
    /// partial index `record_disputed`.
    package func disputedRecords(vault: String?) throws -> [TransactionRecord] {
        var found: [TransactionRecord] = []
        try forEach(
            """
            SELECT \(RecordRow.selection) FROM \(RecordRow.source)
            WHERE record.disputed = 1 AND \(RecordRow.isVisible) ORDER BY record.time DESC
            """,
            []
        ) { state in
            if vault == nil || state.facts.value.vaultId == vault { found.append(state.record) }
        }
        return found
    }

    /// The visible records of `vault` (or every vault) broadcast at or after `since` with a
    /// proven outcome (confirmed, failed, or replaced), newest first, as their states.
    package func terminalRecords(vault: String?, since: Date) throws -> [RecordState] {
        var found: [RecordState] = []
        let codes = RecordRow.statusCodes(.confirmed) + RecordRow.statusCodes(.failed).filter { $0 != 4 }
        try forEach(
            RecordQuery.stored(
                where: """
                    record.time >= ? AND record.status IN (\(codes.map(String.init).joined(separator: ", ")))
                    AND \(RecordRow.isVisible)
                    """,
                [since.millis],
                tail: "ORDER BY record.time DESC"
            )
        ) { state in
            if vault == nil || state.facts.value.vaultId == vault { found.append(state) }
        }
        return found
    }
}
