import TxLedgerCore

/// What `record` did with one record.
public enum RecordOutcome: Hashable, Sendable {
    /// A new record was written.
    case recorded
    /// A record with this id existed; its facts were kept. `statusAdvanced` tells whether the
    /// input's status was higher in the lattice and was applied as a status update.
    case alreadyRecorded(statusAdvanced: Bool)
}

/// Totals of a batch `record`.
public struct RecordSummary: Hashable, Sendable {
    public var recorded = 0
    public var alreadyRecorded = 0
    public var statusAdvanced = 0

    package init(recorded: Int = 0, alreadyRecorded: Int = 0, statusAdvanced: Int = 0) {
        self.recorded = recorded
        self.alreadyRecorded = alreadyRecorded
        self.statusAdvanced = statusAdvanced
    }
}
