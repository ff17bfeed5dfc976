import TxLedgerCore

/// A file of a sync folder that this replica read or wrote, as it remembers it (schema.md,
/// `folder_file`): the change set it carries, and whether this replica wrote it.
package struct FolderFile: Equatable, Sendable {
    package let name: String
    package let size: Int
    package let vault: String
    package let origin: ReplicaID
    let since: Int64
    package let through: Int64
    package let written: Bool
    /// A file this replica wrote with device keys: the digest of the membership log it carried
    /// (`MembershipLog.digest`), so that a sync writes a full file once the log changed.
    package let membership: [UInt8]?

    package init(name: String, size: Int, changes: ChangeSetHeader, written: Bool, membership: [UInt8]? = nil) {
        self.init(
            name: name,
            size: size,
            vault: changes.vaultId,
            origin: changes.origin,
            since: changes.since,
            through: changes.through,
            written: written,
            membership: membership
        )
    }

    init(
        name: String,
        size: Int,
        vault: String,
        origin: ReplicaID,
        since: Int64,
        through: Int64,
        written: Bool,
        membership: [UInt8]?
    ) {
        self.name = name
        self.size = size
        self.vault = vault
        self.origin = origin
        self.since = since
        self.through = through
        self.written = written
        self.membership = membership
    }

    /// A full change set: every record the writer held.
    package var isFull: Bool { since == 0 }
}
