import Foundation
import TxLedgerCore
import TxLedgerMembership
import TxLedgerSodium
import TxLedgerStore

/// A vault's devices as this ledger sees them (`txledger devices`; Specs/devices.md).
public struct VaultDevices: Sendable, Equatable {
    /// A member of the vault.
    public struct Device: Sendable, Equatable {
        public let id: DeviceID
        public let name: String
        /// Who added it: a member's id, or `nil` for the recovery secret.
        public let addedBy: DeviceID?
        public let addedAt: Date
        /// When a file of its replica was last merged here; `nil`: never directly.
        public let lastSeen: Date?
        /// Whether it is the device of this ledger.
        public let isThisDevice: Bool
    }

    /// A device the vault removed.
    public struct Removed: Sendable, Equatable {
        public let id: DeviceID
        /// The members that removed it (none: the recovery secret).
        public let removedBy: [DeviceID]
        /// Its writes stamped after this instant never count (the cut, in milliseconds).
        public let cutAt: Date
    }

    public let vault: String
    /// By name, then id.
    public let members: [Device]
    public let removed: [Removed]
    /// Who files of the vault are sealed for, as 8 hexadecimal digits of a digest of their
    /// public identities: it changes when a device is added or removed, or the recovery secret
    /// replaced (each such change starts an epoch no removed device reads).
    public let epoch: String
    /// The writes of removed devices set aside here (`Ledger.restoreSetAside`).
    public let setAside: [SetAsideWrite]
}

extension LedgerDatabase {
    /// `vault`'s devices, as seen by the device whose identity is `me`; `nil` if the vault has
    /// no device keys here.
    package func devices(vault: String, me: DeviceID?) async throws -> VaultDevices? {
        try TextField.identifier.validate(vault, field: "vault")
        return try await read { store in
            guard let membership = try store.membershipLog(vault)?.evaluate() else { return nil }
            let heard = Dictionary(
                try store.peers(vault).map { ($0.replica, $0.heardAtMillis) },
                uniquingKeysWith: { $1 }
            )
            let members = membership.members.values.map { member in
                VaultDevices.Device(
                    id: member.id,
                    name: member.name,
                    addedBy: member.addedBy,
                    addedAt: Date(millis: Stamp.millis(ofTime: Int64(clamping: member.addedAt))),
                    lastSeen: heard[member.replica].flatMap { $0 }.map(Date.init(millis:)),
                    isThisDevice: member.id == me
                )
            }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
            let removed = membership.removed.map { id, removal in
                VaultDevices.Removed(
                    id: id,
                    removedBy: removal.removedBy,
                    cutAt: Date(millis: Stamp.millis(ofTime: Int64(clamping: removal.cut.time)))
                )
            }.sorted { $0.id < $1.id }
            let digest = Sodium.genericHash(membership.recipients.flatMap(\.bytes), outputLength: 16)
            return VaultDevices(
                vault: vault,
                members: members,
                removed: removed,
                epoch: digest.prefix(4).map { String(format: "%02x", $0) }.joined(),
                setAside: try store.setAsideWrites(vault)
            )
        }
    }
}
