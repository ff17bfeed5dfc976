import TxLedgerBundle
import TxLedgerCore

/// What importing a bundle did.
public struct BundleImport: Sendable, Equatable {
    public let info: BundleInfo
    public let report: MergeReport
}
