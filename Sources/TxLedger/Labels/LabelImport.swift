/// What `Ledger.importLabels(from:vault:)` did with a BIP-329 file's lines.
public struct LabelImport: Sendable, Equatable, Encodable {
    /// Transactions whose note the file set.
    public internal(set) var applied = 0
    /// Transactions that already had the file's label as their note.
    public internal(set) var unchanged = 0
    /// Lines of a transaction this vault does not hold on a Bitcoin-like chain.
    public internal(set) var unmatched = 0
    /// Lines of what TxLedger does not store (addresses, outputs, keys), or without a label.
    public internal(set) var ignored = 0
}
