import TxLedgerCore

/// Which of a vault's changes an exported bundle carries.
public enum ExportScope: Sendable, Equatable {
    /// Everything this replica holds of the vault.
    case full
    /// What `peer` has not acknowledged (everything if it never said).
    case forPeer(ReplicaID)
    /// What some peer of the vault has not acknowledged yet: everything after the least change
    /// that every peer heard from within `Ledger.Options.peerHorizonMillis` holds, so any of
    /// them can use the bundle; everything if there is none. A peer not heard from for longer,
    /// or forgotten, no longer holds deltas back; when it comes back it says what it holds and
    /// gets the rest (crdt.md, "Deltas").
    case knownPeers
}
