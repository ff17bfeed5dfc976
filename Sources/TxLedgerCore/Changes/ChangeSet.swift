/// What one replica sends another about one vault: a header (`ChangeSetHeader`: the vault, the
/// sender, what it covers and what the sender knows), then register states with their stamps,
/// so the receiver can merge them and reply with a delta.
///
/// A change set holds every row of the vault that the sender changed after its change sequence
/// number `since` (0: all of them, a full export), up to `through`.
@dynamicMemberLookup
public struct ChangeSet: Sendable, Equatable {
    public let header: ChangeSetHeader
    package let records: [RecordState]

    package init(header: ChangeSetHeader, records: [RecordState]) {
        self.header = header
        self.records = records
    }

    public subscript<T>(dynamicMember keyPath: KeyPath<ChangeSetHeader, T>) -> T {
        header[keyPath: keyPath]
    }

    /// How many records (visible or not) it carries.
    public var recordCount: Int { records.count }
}
