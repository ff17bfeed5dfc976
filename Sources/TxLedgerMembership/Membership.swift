import TxLedgerCore

/// What a membership log means (Specs/devices.md, "Evaluation"): its members, the devices it
/// removed with their cuts, and the identities of the recovery secrets that may still approve.
public struct Membership: Equatable, Sendable {
    /// A device of the vault.
    public struct Member: Equatable, Sendable {
        public let identity: PublicIdentity
        public var id: DeviceID { identity.deviceID }
        public let name: String
        public let replica: ReplicaID
        /// Who added it: a device's id, or `nil` for the recovery secret.
        public let addedBy: DeviceID?
        /// The adding operation's stamp time.
        public let addedAt: UInt64
    }

    /// A device the vault removed: its writes stamped after `cut` never count.
    public struct Removal: Equatable, Sendable {
        public let cut: RemovalCut
        /// The removing devices (none: only the recovery secret removed it).
        public let removedBy: [DeviceID]
    }

    public let members: [DeviceID: Member]
    public let removed: [DeviceID: Removal]
    /// The recovery identities that may approve, in increasing order of their bytes.
    public let recovery: [PublicIdentity]
    /// Every identity that ever had the right to sign: the devices of effective adds (members
    /// and removed devices) and the vault's recovery identities (its first, and those effective
    /// rotations named). A removed device's file relays only their operations.
    package let signers: Set<PublicIdentity>

    /// The member whose replica is `replica`, if any.
    public func member(writingAs replica: ReplicaID) -> Member? {
        members.values.first { $0.replica == replica }
    }

    /// The writes that no longer count: each removed device's replica with its cut (the
    /// smallest, should two removals of one device differ). A ledger applies them without its
    /// own replica's (`WriteCuts.excluding`).
    package var cuts: WriteCuts {
        WriteCuts(
            Dictionary(
                removed.values.map { ($0.cut.replica, Int64(clamping: $0.cut.time)) },
                uniquingKeysWith: min
            )
        )
    }

    /// The removed device whose replica is `replica`, if any.
    package func removedDevice(writingAs replica: ReplicaID) -> DeviceID? {
        removed.first { $0.value.cut.replica == replica }?.key
    }

    /// Who a file of the vault is sealed for: every member, and every recovery identity.
    package var recipients: [PublicIdentity] {
        members.values.map(\.identity).sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) } + recovery
    }
}
