import TxLedgerCore

extension Ledger {
    /// Removes one record from this file only (Specs/crdt.md, "Removing from this device"): not
    /// a change that syncs, so other devices keep it. It comes back here when it changes on
    /// another device, or with a full change set; to remove it everywhere, hide it or clear the
    /// vault.
    /// - Returns: the record as it was.
    /// - Throws: `LedgerError.notFound` if this file holds no record with this id.
    @discardableResult
    public func removeFromThisDevice(_ id: TransactionID) async throws -> TransactionRecord {
        try await write { transaction in
            guard let state = try transaction.store.fetchStored(id: id) else { throw LedgerError.notFound(id.rawValue) }
            try transaction.store.remove(id)
            return state.record
        }
    }

    /// Removes everything this file holds of `vault` (Specs/crdt.md, "Removing from this
    /// device"): its records, its clear watermark, what it knows of the vault's peers and of
    /// the sync folders' files. Not a change that syncs: other devices keep the vault, and a
    /// later sync of it brings it back (whole through a folder, or from a full export).
    /// - Returns: how many records were removed.
    /// - Throws: `LedgerError.unknownVault` if this file holds nothing of `vault`.
    @discardableResult
    public func forgetVault(_ vault: String) async throws -> Int {
        try TextField.identifier.validate(vault, field: "vault")
        return try await write { transaction in
            let store = transaction.store
            guard try store.vaults().contains(vault) else { throw LedgerError.unknownVault(vault) }
            let count = try store.countStored(vault: vault, changedAfter: -1)
            try store.removeVault(vault)
            return count
        }
    }
}
