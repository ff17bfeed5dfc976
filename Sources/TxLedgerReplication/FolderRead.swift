/// A change set read from a shared folder (Specs/folder-sync.md), which changes two things of
/// its merge: a delta that starts after what this replica holds of its origin is no gap (the
/// origin's earlier changes are in the folder's other files, its own or the full file it
/// adopted, which a sync reads too); and a full change set may cover this replica when it holds
/// every record this replica had not changed after `points[vault]`, the change number through
/// which its changes are in the folder (`FullCoverage`).
package struct FolderRead: Sendable {
    package let points: [String: Int64]

    package init(points: [String: Int64]) {
        self.points = points
    }
}
