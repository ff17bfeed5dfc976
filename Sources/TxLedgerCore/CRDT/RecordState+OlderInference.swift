/// Failures that versions before status evidence inferred (Specs/crdt.md, "Older versions'
/// inferences"): they wrote "dropped or replaced" from a used nonce as a plain failure.
extension RecordState {
    /// How those versions began the reason of a failure they inferred from a used nonce.
    static let olderInferencePrefix = "dropped or replaced: nonce "

    /// This state as this version keeps it: a failure whose reason begins with
    /// `olderInferencePrefix`, with no status detail (block, fee paid, replacement), moves with its stamp
    /// to the inferred register, so that any proof overturns it. Applied to what bundle
    /// formats 1–3 and schema v7 hold, which know no evidence; the same data converts the
    /// same on every device, so they still converge.
    package var withOlderInference: RecordState {
        guard let terminal = status.terminal, status.inferred == nil, terminal.newerFields.isEmpty,
            terminal.value.status == .failed, terminal.value.details.isEmpty,
            let reason = terminal.value.failureReason, reason.hasPrefix(Self.olderInferencePrefix)
        else { return self }
        var state = self
        state.status = StatusRegister(pending: status.pending, inferred: Register(reason, stamp: terminal.stamp))
        return state
    }
}
