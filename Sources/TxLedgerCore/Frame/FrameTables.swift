/// The tables a ledger file's stored frames refer to (Specs/schema.md, `frame_text` and
/// `frame_replica`): texts that repeat across records (a chain, a token, a sender, an app) and
/// replica ids, each entry numbered as a frame refers to it. A stored frame is encoded as if it
/// followed a payload whose tables are the file's: what a record brings that is new is added
/// to the tables (the store writes those entries in the same transaction) and referred to, so
/// no frame introduces an entry. Entries are never removed nor renumbered.
package struct FrameTables: Sendable {
    /// Most entries of a file's text table, and most UTF-8 bytes they hold: every read of the
    /// file loads the table.
    static let maxTexts = 4096
    static let maxTextBytes = 1 << 20

    package var texts = SharedTextTable(maxEntries: maxTexts, maxTotalBytes: maxTextBytes)
    package var replicas: [ReplicaID] = []

    package init() {}
}
