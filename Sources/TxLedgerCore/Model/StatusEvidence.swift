/// How a terminal status was learned (Specs/crdt.md, "Status"; status-tracking.md, "Proof and
/// inference"). Proof beats inference: a proven outcome is shown whatever the stamps, and an
/// inferred failure is shown only while nothing is proven.
public enum StatusEvidence: String, Sendable, Codable, CaseIterable {
    /// Observed directly: a receipt, a finalized status, a transaction result, a swap's stages,
    /// or the app's or user's own word.
    case proof
    /// Inferred from what the chain does not show: "dropped or replaced" because the sender's
    /// nonce was used by another transaction. Only a failure is ever inferred.
    case inference
}
