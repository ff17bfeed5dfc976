import Foundation
import TxLedgerCore

extension LedgerTransaction {
    /// Applies `update` to `state` through the lattice, stamping it if it changes anything
    /// (the caller stores the state).
    /// - Throws: `LedgerError.invalidInput` for a confirmation time or failure reason out of range.
    package mutating func apply(_ update: StatusUpdate, to state: inout RecordState) throws -> StatusUpdateResult {
        let update = try update.validated(for: state.facts.value.chain)
        let previous = state.status.status
        let stamp = try stamp(writing: state, replacing: state.status.stamps)
        switch state.status.applying(update, stamp: stamp) {
        case let .success(status):
            state.status = status
            return StatusUpdateResult(record: state.record, previousStatus: previous, refusal: nil)
        case let .failure(refusal):
            return StatusUpdateResult(record: state.record, previousStatus: previous, refusal: refusal)
        }
    }

    /// Writes `value` into `state`'s annotation `register` with a fresh stamp and stores it,
    /// unless the register already holds it (or was never written and `value` is `unset`).
    /// - Returns: whether it wrote.
    @discardableResult
    package mutating func annotate<V: Hashable & Sendable>(
        _ state: inout RecordState,
        _ register: WritableKeyPath<RecordState, Register<V>?>,
        _ value: V,
        unset: V
    ) throws -> Bool {
        guard (state[keyPath: register]?.value ?? unset) != value else { return false }
        state[keyPath: register] = Register(
            value,
            stamp: try stamp(writing: state, replacing: [state[keyPath: register]?.stamp])
        )
        try store.updateRegisters(state)
        return true
    }

    /// Writes what one status check found: the status through the lattice (`update`, if the
    /// chain gave an answer) and `lastCheckedAt`, which only moves forward.
    ///
    /// An inferred failure is written only when an earlier check saw the same at least
    /// `inferenceInterval` before and no answer disagreed since (status-tracking.md, "Proof and
    /// inference"); the first such check is noted in the file (`drop_suspicion`), and any other
    /// answer forgets it. A check without an answer (`answered` false) changes neither.
    /// - Returns: the record afterwards, its status before, and whether the status changed; or
    ///   `nil` if the record is gone (a vault clear arrived meanwhile).
    package mutating func recordCheck(
        _ id: TransactionID,
        update: StatusUpdate?,
        answered: Bool,
        checkedAt: Date,
        inferenceInterval: TimeInterval
    ) throws -> (record: TransactionRecord, previous: TransactionStatus, changed: Bool)? {
        guard var state = try store.fetch(id: id) else { return nil }
        let previous = state.status.status
        var update = update
        if let inference = update, inference.evidence == .inference, state.status.terminal == nil,
            state.status.inferred?.value != inference.failureReason
        {
            if let since = try store.dropSuspicion(id),
                checkedAt.millis - since.millis >= Int64(inferenceInterval * 1000)
            {
                try store.forgetDropSuspicion(id)
            } else {
                try store.noteDropSuspicion(id, since: checkedAt)
                update = nil
            }
        } else if answered {
            try store.forgetDropSuspicion(id)
        }
        // A proven outcome a check read is the chain's answer, which outranks every device's word.
        let changed = try update.map { try apply($0.readOnChain, to: &state).changed } ?? false
        let movesCheck = checkedAt > (state.lastCheckedAt ?? .distantPast)
        if movesCheck { state.lastCheckedAt = checkedAt }
        if movesCheck || changed { try store.updateRegisters(state) }
        if changed { try settleReplacements(of: state) }
        return (state.record, previous, changed)
    }
}
