import TxLedgerCore

extension Ledger {
    /// Closes the ledger's database connections, waiting on a thread of its own for work under
    /// way to finish. An app calls it before it deletes or moves the file, or when it is done
    /// with a ledger it opened for a while (another account). Afterwards every call on this
    /// `Ledger` fails with `LedgerError.storage`; open the file again to use it.
    public func close() async throws {
        try await database.close()
    }
}
