import Foundation
import GRDB
import TxLedgerCore

/// Replacement links (a record's `replaces` fact, kept as the replaced record's id in
/// `record.replaced`), read both ways: from a replacement to its original by id, and from an
/// original to its replacements through the partial index `record_replacing`.
extension RecordStore {
    /// The visible records that name `id` as the record they replace.
    func replacements(of id: TransactionID) throws -> [RecordState] {
        guard try anyReplacements() else { return [] }
        var found: [RecordState] = []
        try forEach(Self.replacementsQuery, [Data(id.bytes)]) { found.append($0) }
        return found
    }

    /// The visible rows that replace the record whose id is the argument, through
    /// `record_replacing`.
    static let replacementsQuery =
        "SELECT \(RecordRow.selection) FROM \(RecordRow.source) WHERE record.replaced = ? AND \(RecordRow.isVisible)"

    /// Whether any record of the file names one it replaces: one query per transaction, so that
    /// a ledger without replacements looks nothing up.
    func anyReplacements() throws -> Bool {
        if let holdsReplacements { return holdsReplacements }
        // Prepared once per connection: a recorded batch of 1000 asks in each transaction.
        let statement = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM record WHERE replaced IS NOT NULL)")
        let any = try Bool.fetchOne(statement) ?? false
        holdsReplacements = any
        return any
    }
}
