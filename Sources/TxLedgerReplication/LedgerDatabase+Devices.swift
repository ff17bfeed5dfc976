import TxLedgerBundle
import TxLedgerCore
import TxLedgerMembership
import TxLedgerSodium
import TxLedgerStore

/// The membership operations a device signs (Specs/devices.md, "Membership", "Pairing",
/// "Recovery"): each is added to the vault's log in one transaction, and reaches the other
/// devices in this device's next file of the vault.
extension LedgerDatabase {
    /// The vault's membership as this ledger's log says; `nil` if the vault has no device keys
    /// here.
    package func membership(vault: String) async throws -> Membership? {
        try await read { try $0.membershipLog(vault)?.evaluate() }
    }

    /// Makes this device a member of `vault`, signed by the recovery secret (the vault's shared
    /// secret, before any rotation): the first member of a vault without device keys here (its
    /// recovery identity is then pinned as the vault's first), or a device that joins a vault
    /// whose recovery secret it holds. Nothing happens for a device that is a member already.
    /// - Throws: `LedgerError.invalidInput` without a device key or a secret, for a secret that
    ///   is not a recovery secret of the vault, or for a device the vault removed.
    package func joinWithRecovery(
        vault: String,
        name: String,
        credentials: BundleCredentials
    ) async throws
        -> Membership
    {
        try TextField.identifier.validate(vault, field: "vault")
        let device = try Self.required(credentials.device)
        guard let recovery = try await credentials.recoveryIdentity(vault: vault) else {
            throw LedgerError.invalidInput(
                field: "secret",
                reason:
                    "joining a vault with its recovery secret needs that secret (the vault's sync key or passphrase)"
            )
        }
        let replica = replicaID
        return try await write { transaction in
            try transaction.store.ensureVault(vault)
            let pinned = try transaction.store.pinFirstRecovery(vault, recovery.publicIdentity)
            var log = try transaction.store.membershipLog(vault) ?? MembershipLog(vault: vault, firstRecovery: pinned)
            let membership = log.evaluate()
            if membership.members[device.deviceID] != nil { return membership }
            try Self.requireNotRemoved(device.deviceID, membership, vault: vault)
            guard membership.recovery.contains(recovery.publicIdentity) else {
                throw LedgerError.invalidInput(
                    field: "secret",
                    reason: "it is not the recovery secret of vault '\(vault)' (it was replaced, or is another vault's)"
                )
            }
            return try transaction.sign(
                .add(device.publicIdentity, name: name, replica: replica),
                in: &log,
                by: recovery,
                asRecovery: true
            )
        }
    }

    /// Adds a device to `vault`, signed by this device, a member (pairing: the device asked to
    /// join and the user compared its fingerprint).
    package func approve(_ request: JoinRequest, credentials: BundleCredentials) async throws -> Membership {
        let device = try Self.required(credentials.device)
        return try await signAsMember(request.vault, device) { membership, _ in
            try Self.requireNotRemoved(request.identity.deviceID, membership, vault: request.vault)
            return .add(request.identity, name: request.name, replica: request.replica)
        }
    }

    /// Removes `removed` from `vault`, signed by this device, with the cut of what this ledger
    /// holds of it. When the removed device may hold the vault's recovery secret (it joined
    /// with it, or the vault still recovers with its first, shared, secret), the removal also
    /// replaces the recovery secret with a new sync key, returned to be kept somewhere safe.
    package func removeDevice(
        _ removed: DeviceID,
        vault: String,
        credentials: BundleCredentials
    ) async throws -> (membership: Membership, newRecovery: SyncKey?) {
        let device = try Self.required(credentials.device)
        guard removed != device.deviceID else {
            throw LedgerError.invalidInput(
                field: "device",
                reason: "a device cannot remove itself: remove it on another member"
            )
        }
        let key = SyncKey.generate()
        let identity = try await BundleSecret.syncKey(key).recoveryIdentity(vault: vault)
        let rotates = LockedValue(false)
        let membership = try await signAsMember(vault, device) { membership, firstRecovery in
            guard let member = membership.members[removed] else {
                throw LedgerError.invalidInput(field: "device", reason: "no member of vault '\(vault)' has this id")
            }
            let rotated = member.addedBy == nil || membership.recovery.contains(firstRecovery)
            rotates.set(rotated)
            return .remove(
                removed,
                cut: RemovalCut(replica: member.replica, time: 0),
                newRecovery: rotated ? identity.publicIdentity : nil
            )
        }
        return (membership, rotates.get() ? key : nil)
    }

    /// Renames a member of `vault`, signed by this device.
    package func renameDevice(
        _ renamed: DeviceID,
        to name: String,
        vault: String,
        credentials: BundleCredentials
    )
        async throws -> Membership
    {
        let device = try Self.required(credentials.device)
        return try await signAsMember(vault, device) { membership, _ in
            guard membership.members[renamed] != nil else {
                throw LedgerError.invalidInput(field: "device", reason: "no member of vault '\(vault)' has this id")
            }
            return .rename(renamed, name: name)
        }
    }

    /// Replaces `vault`'s recovery secret with a new sync key, signed by this device: the former
    /// secret then approves nobody and reads only what was written before.
    package func rotateRecovery(vault: String, credentials: BundleCredentials) async throws -> (Membership, SyncKey) {
        let device = try Self.required(credentials.device)
        let key = SyncKey.generate()
        let identity = try await BundleSecret.syncKey(key).recoveryIdentity(vault: vault)
        let membership = try await signAsMember(vault, device) { _, _ in .rotateRecovery(identity.publicIdentity) }
        return (membership, key)
    }

    /// Signs the change `make` gives for the vault's membership as this device evaluates it,
    /// with a removal's cut filled in from what this ledger holds.
    private func signAsMember(
        _ vault: String,
        _ device: DeviceIdentity,
        make: @escaping @Sendable (Membership, _ firstRecovery: PublicIdentity) throws -> MembershipChange
    ) async throws -> Membership {
        try TextField.identifier.validate(vault, field: "vault")
        return try await write { transaction in
            guard var log = try transaction.store.membershipLog(vault) else {
                throw LedgerError.invalidInput(
                    field: "vault",
                    reason: "vault '\(vault)' has no device keys here: run `txledger devices init` first"
                )
            }
            let membership = log.evaluate()
            guard membership.members[device.deviceID]?.identity == device.publicIdentity else {
                throw BundleError.notAMember(
                    BundleCredentials.notMemberReason(device: device, vault: vault, membership: membership)
                )
            }
            var change = try make(membership, log.firstRecovery)
            if case let .remove(removed, cut, recovery) = change {
                let time = try transaction.store.latestStampTime(vault, replica: cut.replica)
                change = .remove(
                    removed,
                    cut: RemovalCut(replica: cut.replica, time: UInt64(time)),
                    newRecovery: recovery
                )
            }
            return try transaction.sign(change, in: &log, by: device, asRecovery: false)
        }
    }

    private static func required(_ device: DeviceIdentity?) throws -> DeviceIdentity {
        guard let device else {
            throw LedgerError.invalidInput(field: "device", reason: "this ledger has no device key")
        }
        return device
    }

    private static func requireNotRemoved(_ device: DeviceID, _ membership: Membership, vault: String) throws {
        guard membership.removed[device] == nil else {
            throw LedgerError.invalidInput(
                field: "device",
                reason: "device \(device.fingerprint) was removed from vault '\(vault)'; a removed device never "
                    + "comes back (a returning device makes a new device key)"
            )
        }
    }
}

extension LedgerTransaction {
    /// Signs `change` as the next operation of `log` (its parents: the log's heads), keeps it
    /// and returns the membership that results.
    mutating func sign(
        _ change: MembershipChange,
        in log: inout MembershipLog,
        by signer: DeviceIdentity,
        asRecovery: Bool
    ) throws -> Membership {
        let operation = try MembershipOperation.signed(
            change,
            vault: log.vault,
            time: UInt64(stamps.next().time),
            parents: log.heads,
            by: signer,
            asRecovery: asRecovery
        )
        try log.insert(operation)
        try store.saveOperations([operation], vault: log.vault)
        return log.evaluate()
    }
}
