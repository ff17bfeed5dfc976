/// What `Ledger.importLabels(from:vault:)` did with a BIP-329 file's lines.
public struct LabelImport: Sendable, Equatable, Encodable {
    /// Transactions whose note the file set.
    public package(set) var applied = 0
    /// Transactions that already had the file's label as their note.
    public package(set) var unchanged = 0
    /// Lines of a transaction this vault does not hold on a Bitcoin-like chain.
    public package(set) var unmatched = 0
    /// Lines of what TxLedger does not store (addresses, outputs, keys), or without a label.
    public package(set) var ignored = 0

    package init(applied: Int = 0, unchanged: Int = 0, unmatched: Int = 0, ignored: Int = 0) {
        self.applied = applied
        self.unchanged = unchanged
        self.unmatched = unmatched
        self.ignored = ignored
    }
}
