import TxLedgerCore

/// What a membership operation does (Specs/devices.md, "Operations").
public enum MembershipChange: Hashable, Sendable {
    /// A device joins the vault under a name, writing as a replica.
    case add(PublicIdentity, name: String, replica: ReplicaID)
    /// A device leaves the vault for good; its writes past `cut` never count. A removal that
    /// replaces the recovery secret names the new one.
    case remove(DeviceID, cut: RemovalCut, newRecovery: PublicIdentity?)
    /// A member's new name.
    case rename(DeviceID, name: String)
    /// The vault's recovery secret is replaced by another.
    case rotateRecovery(PublicIdentity)

    /// The kind byte of the operation's bytes.
    var kind: UInt8 {
        switch self {
        case .add: 1
        case .remove: 2
        case .rename: 3
        case .rotateRecovery: 4
        }
    }

    /// Whether the change can cut other operations off (Specs/devices.md, "Evaluation"): a
    /// removal or a rotation.
    var cutsOff: Bool {
        switch self {
        case .remove, .rotateRecovery: true
        case .add, .rename: false
        }
    }

    /// The recovery identity the change makes current, if it rotates the recovery secret.
    var newRecovery: PublicIdentity? {
        switch self {
        case let .remove(_, _, recovery): recovery
        case let .rotateRecovery(recovery): recovery
        case .add, .rename: nil
        }
    }
}

/// What a remover had seen of the device it removes: the device's replica and the greatest
/// stamp time of that replica it held (0: none). Writes of that replica stamped after it never
/// count (Specs/devices.md, "What counts as a member's write").
public struct RemovalCut: Hashable, Sendable {
    public let replica: ReplicaID
    public let time: UInt64

    public init(replica: ReplicaID, time: UInt64) {
        self.replica = replica
        self.time = time
    }
}
