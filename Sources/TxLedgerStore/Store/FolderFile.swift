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
    /// (`MembershipLog.digest`), so that a sync writes a full file once the log changed; a
    /// file it adopted (`coversThrough`) with device keys: the log it carried, this replica's.
    package let membership: [UInt8]?
    /// Another device's full file that held everything this replica held when it merged it,
    /// and that it keeps in place of a full file of its own: the merge's change sequence
    /// number (folder-sync.md, "Adopting another device's full file"). `nil` otherwise.
    package let coversThrough: Int64?
    /// Another device's full file that did not hold everything this replica held when it
    /// merged it, and that this replica's next full file will hold, so that its writer can
    /// adopt that one: this replica writes one at its next sync (folder-sync.md).
    package let rival: Bool

    package init(
        name: String,
        size: Int,
        changes: ChangeSetHeader,
        written: Bool,
        membership: [UInt8]? = nil,
        coversThrough: Int64? = nil,
        rival: Bool = false
    ) {
        self.init(
            name: name,
            size: size,
            vault: changes.vaultId,
            origin: changes.origin,
            since: changes.since,
            through: changes.through,
            written: written,
            membership: membership,
            coversThrough: coversThrough,
            rival: rival
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
        membership: [UInt8]?,
        coversThrough: Int64?,
        rival: Bool
    ) {
        self.name = name
        self.size = size
        self.vault = vault
        self.origin = origin
        self.since = since
        self.through = through
        self.written = written
        self.membership = membership
        self.coversThrough = coversThrough
        self.rival = rival
    }

    /// A full change set: every record the writer held.
    package var isFull: Bool { since == 0 }
}
