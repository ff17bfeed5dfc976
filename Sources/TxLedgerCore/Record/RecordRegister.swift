/// The registers of a record (Specs/crdt.md, "Registers"), as the fields name them: each has a
/// stamp (`<name>_time`, `<name>_replica`) and, but for `facts` and `pending`, values.
/// `terminal` holds a proven outcome, `inferred` an inferred failure (`StatusRegister`),
/// `cleared` the facts a clear erased (`ClearMark`), `rival` the terminal claim that disputes
/// the terminal register's.
enum RecordRegister: String, CaseIterable, Sendable {
    case facts, pending, terminal, note, labels, hidden, inferred, cleared, rival

    /// The fields of the register's stamp.
    var stamp: (time: RecordField, replica: RecordField) {
        switch self {
        case .facts: (.factsTime, .factsReplica)
        case .pending: (.pendingTime, .pendingReplica)
        case .terminal: (.terminalTime, .terminalReplica)
        case .note: (.noteTime, .noteReplica)
        case .labels: (.labelsTime, .labelsReplica)
        case .hidden: (.hiddenTime, .hiddenReplica)
        case .inferred: (.inferredTime, .inferredReplica)
        case .cleared: (.clearedTime, .clearedReplica)
        case .rival: (.rivalTime, .rivalReplica)
        }
    }

    /// The register's value fields (the facts' are the facts themselves, checked by the model).
    var values: [RecordField] {
        switch self {
        case .facts, .pending: []
        case .terminal: [.terminalStatus, .confirmedAtMs, .failureReason, .terminalChecked] + RecordField.statusDetails
        case .note: [.note]
        case .labels: [.labels]
        case .hidden: [.hidden]
        case .inferred: [.inferredReason]
        case .cleared: [.clearedThroughTime, .clearedThroughReplica]
        case .rival: [.rivalStatus, .rivalBlockNumber, .rivalFeePaid, .rivalChecked]
        }
    }

    /// The value fields that must come with the stamp.
    var required: [RecordField] {
        switch self {
        case .terminal: [.terminalStatus]
        case .labels: [.labels]
        case .hidden: [.hidden]
        case .inferred: [.inferredReason]
        case .cleared: [.clearedThroughTime, .clearedThroughReplica]
        case .rival: [.rivalStatus]
        case .facts, .pending, .note: []
        }
    }
}
