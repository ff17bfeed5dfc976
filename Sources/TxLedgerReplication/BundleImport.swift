import TxLedgerBundle
import TxLedgerCore

/// What importing a bundle did.
public struct BundleImport: Sendable, Equatable {
    public let info: BundleInfo
    public let report: MergeReport
    /// Why none of its records counted, for a file of a device the vault removed: its writes
    /// past the cut were set aside (and it is not imported again).
    package let refusal: BundleError?
    /// For a full change set read from a sync folder that held everything this replica held of
    /// its vault, what the merge proved (`FullCoverage`).
    package let coverage: FullCoverage?
}
