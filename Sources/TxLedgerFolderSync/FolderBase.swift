import TxLedgerStore

/// The full file a device's later files of a vault build on in a folder (folder-sync.md,
/// "Adopting another device's full file"): its own latest full file, or another device's that
/// it adopted, whichever it took last; its deltas carry what changed here after `point`.
struct FolderBase {
    let file: FolderFile
    /// This replica's change sequence number that the file holds everything through: its own
    /// file's `through`, or the change number of the merge that proved an adopted one covered.
    let point: Int64

    /// Of this replica's latest full file and the file it adopted, both under the vault's
    /// current membership (`membership`), the one taken last; `nil` if neither is in the folder.
    /// A full file written forgets the adoption before it, so an adoption at the same point
    /// came after it (a merge that changed nothing used no change number).
    static func latest(own: FolderFile?, adopted: FolderFile?, membership: [UInt8]?) -> FolderBase? {
        let own = own.flatMap { isBase($0, under: membership) ? FolderBase(file: $0, point: $0.through) : nil }
        let adopted = adopted.flatMap { file in
            isBase(file, under: membership) ? file.coversThrough.map { FolderBase(file: file, point: $0) } : nil
        }
        guard let adopted else { return own }
        return own.map { $0.point > adopted.point } == true ? own : adopted
    }

    /// Whether a full file named `name`, which a merge proved held everything held here, or
    /// everything but what changed here after this replica's last file (`FullCoverage`; such a
    /// cover never "holds more"), and which carried the membership log `membership` (with
    /// device keys; the vault's whole log here now), is adopted over this replica's own latest
    /// full file and over the file it adopted: always when it holds more (`holdsMore`: its
    /// writer cannot find this one covering it); between files that hold the same, only the one
    /// whose name sorts first, so that two devices that read each other's at once never both
    /// remove their own, and a device that reads several adopts the one their writers adopt
    /// too. A file under another log is no base (`latest`), and does not count.
    static func adopts(
        _ name: String,
        holdsMore: Bool,
        membership: [UInt8]?,
        over ownFull: FolderFile?,
        adopted: FolderFile?
    ) -> Bool {
        holdsMore
            || [ownFull, adopted].allSatisfy { file in
                file.map { !isBase($0, under: membership) || name < $0.name } ?? true
            }
    }

    /// Whether `file` may be a base under the vault's membership log `membership`: only a file
    /// written under that log (an older log's file is rewritten, not built on).
    private static func isBase(_ file: FolderFile, under membership: [UInt8]?) -> Bool {
        file.membership == membership
    }
}
