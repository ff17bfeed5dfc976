import Foundation
import TxLedgerCore

extension Ledger {
    /// The sends and swaps whose status a chain may still change (broadcasted or pending),
    /// hidden ones included, newest first: what a status refresh checks.
    /// - Parameter vault: one vault, or every vault when `nil`.
    public func pendingRecords(vault: String? = nil) async throws -> [TransactionRecord] {
        try await database.pendingRecords(vault: vault)
    }
}
