/// The greatest claim against a record's shown outcome (Specs/crdt.md, "Outcomes the chain
/// settles"): every device shows the same outcome and the same claim against it. While the
/// shown outcome is a device's word the record is disputed, and the next status check of its
/// chain asks the chain; once the shown outcome is the chain's answer the claim is `settled`:
/// the chain overruled it (a mistaken or forged word).
public struct StatusDispute: Hashable, Sendable, Codable {
    /// What the other claim says: confirmed or failed.
    public let status: TransactionStatus
    /// The block and the fee paid it names, if it names them.
    public let blockNumber: UInt64?
    public let feePaid: DecimalAmount?
    /// The replica of the device that claimed it.
    public let claimedBy: ReplicaID
    /// The replica of the device whose claim, or whose status check, is shown.
    public let shownClaimOf: ReplicaID
    /// Whether the shown outcome is the chain's answer, which overruled this claim.
    public let settled: Bool

    init?(_ status: StatusRegister) {
        guard let rival = status.rival, let terminal = status.terminal else { return nil }
        settled = terminal.value.checkedOnChain
        self.status = rival.value.status
        blockNumber = rival.value.blockNumber
        feePaid = rival.value.feePaid
        claimedBy = rival.stamp.replica
        shownClaimOf = terminal.stamp.replica
    }
}
