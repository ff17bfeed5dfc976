import TxLedgerCore

/// What one refresh pass did, record by record.
public struct RefreshSummary: Sendable {
    /// One per record checked or not, newest first.
    public let results: [RefreshResult]

    /// Records whose status changed.
    public var changed: [RefreshResult] { results.filter { $0.outcome == .changed } }
    /// Records checked that are still broadcasted or pending.
    public var stillPending: [RefreshResult] {
        results.filter { $0.outcome == .unchanged && !$0.record.status.isTerminal }
    }
    /// Records that could not be checked, with why.
    public var notChecked: [RefreshResult] {
        results.filter { if case .notChecked = $0.outcome { true } else { false } }
    }
}

/// One record's part in a refresh pass.
public struct RefreshResult: Sendable {
    /// The record after the pass.
    public let record: TransactionRecord
    public let previousStatus: TransactionStatus
    public let outcome: Outcome

    public enum Outcome: Hashable, Sendable {
        /// The chain's answer moved the status.
        case changed
        /// Checked: no final answer yet, or one the ledger already had (another device, or a
        /// late "pending" after a "confirmed", which the lattice ignores).
        case unchanged
        /// No answer: the status is as it was. Transient problems move `lastCheckedAt`;
        /// `noEndpoint`, `noProvider` and `offline` send no request and do not.
        case notChecked(StatusCheckError)
    }
}
