import TxLedgerCore
import TxLedgerStore

extension Ledger {
    /// The vaults this ledger holds.
    public func vaults() async throws -> [String] {
        try await read { store in try store.vaults() }
    }

    /// What `peer` does not have yet of `vault`: the rows changed since the peer last told this
    /// replica what it holds (in its own change sets), or the whole vault when `peer` is `nil`
    /// or has never said.
    public func changes(vault: String, forPeer peer: ReplicaID? = nil) async throws -> ChangeSet {
        try await read { store in
            let header = try store.changeSetHeader(
                vault,
                since: try peer.map { try store.acknowledged(vault, by: $0) } ?? 0
            )
            return ChangeSet(header: header, records: try store.fetchStored(vault: vault, changedAfter: header.since))
        }
    }

    /// Merges change sets into this replica, all in one transaction: afterwards this replica
    /// holds the join of its state and theirs, or, on an error, exactly what it held before.
    /// Merging the same change set again changes nothing.
    /// - Throws: `LedgerError.invalidInput` if a change set carries a record of another vault.
    @discardableResult
    public func merge(_ changeSets: [ChangeSet]) async throws -> MergeReport {
        try await database.merge(changeSets)
    }

    @discardableResult
    public func merge(_ changes: ChangeSet) async throws -> MergeReport {
        try await merge([changes])
    }

    /// Merges every vault of another replica's ledger file into this one, in one transaction,
    /// as merging the full change set of each would: the other file is opened read-only, never
    /// modified, and read as its records are merged rather than all at once. The file is
    /// untrusted input, checked and capped as a bundle is (Specs/threat-model.md, "Another
    /// replica's ledger file"): a hostile one ends in an error naming it, and this ledger is
    /// left as it was.
    /// - Throws: `LedgerError.invalidInput` if `path` is this ledger itself, under any name;
    ///   `LedgerError.unreadableDatabase` naming `path` if it is not a regular file, not a
    ///   ledger of this version, damaged, or over a limit; `LedgerError.newerSchema`.
    @discardableResult
    public func merge(ledgerAt path: String) async throws -> MergeReport {
        try await database.merge(ledgerAt: path)
    }
}
