import TxLedgerCore

/// What one `Ledger.sync(folder:secret:vaults:)` did (Specs/folder-sync.md).
public struct FolderSyncReport: Sendable, Equatable, Encodable {
    /// What the sync did for one vault.
    public struct VaultReport: Sendable, Equatable, Encodable {
        /// Other devices' files read and merged.
        public var filesRead = 0
        /// Records that became visible here, and visible records that changed.
        public var recordsAdded = 0
        public var recordsChanged = 0
        /// Records visible here that a clear made on another device took away, per clear
        /// (restorable for 30 days: `Ledger.clearedRecords(vault:)`).
        public var clears: [ClearReport] = []
        /// Peers that keep syncing the vault but have not taken this device's files (they
        /// wrote change sets twice without them): nobody may be reading what this device writes.
        public var notReadingOurFiles: [PeerLag] = []
        /// This device's files written, and its files (or a former replica id's) removed.
        public var filesWritten = 0
        public var filesRemoved = 0
        /// Records received whose writes, by a device the vault removed, did not count and were
        /// set aside (Specs/devices.md, "What counts as a member's write").
        public var writesSetAside = 0
        /// This device was removed from the vault (by another device, or by removing one that
        /// removed it at the same time): the others set its writes aside.
        public var removed = false
        /// This device joined the vault with its recovery secret (Specs/devices.md, "Upgrade").
        public var joined = false
        /// Why this device wrote no file of the vault, when it wrote none because it may not:
        /// it is not (or no longer) a member, or has no secret for a vault without device keys.
        public var notWritten: String?
    }

    /// A file the sync did not read, and why, in one line. `retried`: the next sync tries to
    /// read it again (every file named as a bundle: only what was merged is remembered);
    /// a conflict copy is never read.
    public struct SkippedFile: Sendable, Equatable, Encodable {
        public let name: String
        public let reason: String
        public let retried: Bool
    }

    public internal(set) var vaults: [String: VaultReport] = [:]
    public internal(set) var skipped: [SkippedFile] = []
    /// Why this device's files could not be written, when they could not (the folder was
    /// still read).
    public internal(set) var notWritten: String?
    /// The replica id this ledger took while reading, when a file showed that it was restored
    /// from a backup or copied (crdt.md, "Restored and cloned files").
    public internal(set) var newReplicaID: ReplicaID?
    /// Per vault, how many peers the ledger stopped remembering, beyond the limits of
    /// knowledge (crdt.md, "Limits of knowledge"): a file that taught too many, or a ledger
    /// that held too many before this sync.
    public internal(set) var peersDropped: [String: Int] = [:]

    mutating func skip(_ name: String, _ reason: String, retried: Bool) {
        skipped.append(SkippedFile(name: name, reason: reason, retried: retried))
    }

    /// Whether the sync changed nothing here and wrote nothing there.
    public var isQuiet: Bool {
        vaults.values.allSatisfy { $0 == VaultReport() }
    }
}

extension FolderSyncReport.VaultReport {
    /// Counts the records each of `clears` took away.
    mutating func count(_ clears: [ClearReport]) {
        for clear in clears { self.clears.count(clear) }
    }
}
