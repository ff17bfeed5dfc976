/// A file of a sync folder that this replica read or wrote, as it remembers it (schema.md,
/// `folder_file`): the change set it carries, and whether this replica wrote it.
struct FolderFile: Equatable, Sendable {
    let name: String
    let size: Int
    let vault: String
    let origin: ReplicaID
    let since: Int64
    let through: Int64
    let written: Bool

    init(name: String, size: Int, changes: ChangeSetHeader, written: Bool) {
        self.init(
            name: name,
            size: size,
            vault: changes.vaultId,
            origin: changes.origin,
            since: changes.since,
            through: changes.through,
            written: written
        )
    }

    init(name: String, size: Int, vault: String, origin: ReplicaID, since: Int64, through: Int64, written: Bool) {
        self.name = name
        self.size = size
        self.vault = vault
        self.origin = origin
        self.since = since
        self.through = through
        self.written = written
    }

    /// A full change set: every record the writer held.
    var isFull: Bool { since == 0 }
}
