import Foundation

/// How much a chain's answers must show before a status check writes them (status-tracking.md,
/// "Proof and inference", "Confirmation depth"). One policy holds for every chain unless
/// `RefreshConfiguration.evidenceByChain` names another for it.
public struct EvidencePolicy: Hashable, Sendable {
    /// Blocks the block holding a receipt must be deep (1: the block itself) before the
    /// transaction is confirmed; until then it stays pending, since a reorganisation may still
    /// drop that block. Values below 1 count as 1.
    public var confirmations: Int
    /// Blocks the sender's nonce must have been used for (by another transaction) before a
    /// transaction that is nowhere to be seen is inferred dropped or replaced. Values below 1
    /// count as 1.
    public var droppedAfterBlocks: Int
    /// Seconds between the first check that saw the nonce used and the check that agrees and
    /// writes the inference: one check alone never infers a drop.
    public var inferenceInterval: TimeInterval
    /// Seconds for which a record inferred dropped is still checked (on the slowest cadence),
    /// so that a late receipt turns it into a proven outcome.
    public var recheckInferredFor: TimeInterval

    public init(
        confirmations: Int = 1,
        droppedAfterBlocks: Int = 3,
        inferenceInterval: TimeInterval = 60,
        recheckInferredFor: TimeInterval = 24 * 3600
    ) {
        self.confirmations = confirmations
        self.droppedAfterBlocks = droppedAfterBlocks
        self.inferenceInterval = inferenceInterval
        self.recheckInferredFor = recheckInferredFor
    }

    /// The confirmations required, at least 1.
    var requiredConfirmations: UInt64 { UInt64(max(confirmations, 1)) }

    /// The blocks a nonce must have been used for, at least 1.
    var requiredDropDepth: UInt64 { UInt64(max(droppedAfterBlocks, 1)) }
}
