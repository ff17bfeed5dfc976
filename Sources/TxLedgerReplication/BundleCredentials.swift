import TxLedgerBundle
import TxLedgerCore
import TxLedgerMembership
import TxLedgerSodium
import TxLedgerStore

/// What a device opens and signs a vault's bundles with (Specs/devices.md): its own identity,
/// for the format 5 files of a vault with members, and the vault's shared secret, for the
/// files of formats 1 to 4 and, as the recovery secret, for the recovery stanza of format 5
/// files and for joining a vault.
package struct BundleCredentials: Sendable {
    /// This device's identity, if it has one.
    package var device: DeviceIdentity? { identity.get() }
    /// The shared (or recovery) secret, if one was given.
    package let secret: BundleSecret?
    private let identity: LockedValue<DeviceIdentity?>
    /// Makes (and keeps) this device's identity, for a device that joins a vault without one.
    private let makeIdentity: (@Sendable () async throws -> DeviceIdentity)?
    /// The recovery identities the secret derived, by vault (Argon2id for a passphrase: once).
    private let recovery = LockedValue<[String: DeviceIdentity]>([:])

    package init(
        device: DeviceIdentity?,
        secret: BundleSecret?,
        makeIdentity: (@Sendable () async throws -> DeviceIdentity)? = nil
    ) {
        identity = LockedValue(device)
        self.secret = secret
        self.makeIdentity = makeIdentity
    }

    /// This device's identity, made now if it has none and the credentials can make one.
    package func deviceMadeIfNeeded() async throws -> DeviceIdentity? {
        if let device { return device }
        guard let made = try await makeIdentity?() else { return nil }
        identity.set(made)
        return made
    }

    /// The recovery identity the secret derives for `vault`; `nil` without a secret.
    package func recoveryIdentity(vault: String) async throws -> DeviceIdentity? {
        guard let secret else { return nil }
        if let known = recovery.get()[vault] { return known }
        let identity = try await secret.recoveryIdentity(vault: vault)
        recovery.update { $0[vault] = identity }
        return identity
    }

    /// Opens the bundle at `path`: a format 5 file with this device's identity, else with the
    /// recovery identity of one of `vaults` (a stanza names no vault); an older file with the
    /// secret. Argon2id runs on a thread of its own.
    /// - Throws: `BundleError.notARecipient` for a format 5 file none of them opens,
    ///   `BundleError.secretKindMismatch` for an older file without a secret of its kind.
    package func open(
        _ path: String,
        followingLinks: Bool,
        vaults: [String]
    ) async throws -> (header: BundleHeader, keys: BundleKeys) {
        let header = try await DedicatedThread.run {
            try BundleReader.header(of: path, followingLinks: followingLinks).header
        }
        guard header.mode == .deviceKeys else {
            guard let secret else { throw BundleError.secretKindMismatch(bundle: header.mode) }
            return try await DedicatedThread.run {
                let reader = try BundleReader(path: path, secret: secret, followingLinks: followingLinks)
                return (reader.header, reader.keys)
            }
        }
        var identities = device.map { [$0] } ?? []
        for vault in vaults {
            if let identity = try await recoveryIdentity(vault: vault) { identities.append(identity) }
        }
        let candidates = identities
        return try await DedicatedThread.run {
            for identity in candidates {
                do {
                    let reader = try BundleReader(path: path, device: identity, followingLinks: followingLinks)
                    return (reader.header, reader.keys)
                } catch let error as BundleError where error.code == .notARecipient {
                    continue
                }
            }
            throw BundleError.notARecipient
        }
    }

    /// A writer of a bundle of `vault` at `path`, and the device section its payload carries:
    /// format 5, sealed for the vault's members and recovery identities and signed by this
    /// device, once the vault has device keys in `store`; else sealed with the secret.
    /// - Throws: `BundleError.notAMember` for a vault with device keys of which this device was
    ///   never a member; `LedgerError.invalidInput` without a secret for another vault.
    func writer(
        for vault: String,
        at path: String,
        store: RecordStore,
        cost: Argon2idCost,
        sparing protected: [String]
    ) throws -> (BundleWriter, DeviceSection?) {
        guard let log = try store.membershipLog(vault) else {
            guard let secret else {
                throw LedgerError.invalidInput(
                    field: "secret",
                    reason: "vault '\(vault)' has no device keys here: give its key or passphrase "
                        + "(or make it use device keys: txledger devices init)"
                )
            }
            return (try BundleWriter(path: path, secret: secret, cost: cost, sparing: protected), nil)
        }
        let (device, membership, section) = try signer(of: log)
        let writer = try BundleWriter(
            path: path,
            author: device,
            recipients: membership.recipients,
            sparing: protected
        )
        return (writer, section)
    }

    /// This device as the signer of a file of `log`'s vault, the membership it writes under,
    /// and the device section the file carries. A removed device still writes, so that its
    /// own removals reach the others (two devices removing each other converge); they set its
    /// records aside.
    /// - Throws: `BundleError.notAMember` for a device that was never a member.
    func signer(of log: MembershipLog) throws -> (DeviceIdentity, Membership, DeviceSection) {
        let membership = log.evaluate()
        guard let device, Self.maySign(device, log: log, membership: membership) else {
            throw BundleError.notAMember(Self.notMemberReason(device: device, vault: log.vault, membership: membership))
        }
        let section = DeviceSection(
            author: device.deviceID,
            firstRecovery: log.firstRecovery,
            operations: Array(log.operations.values)
        )
        return (device, membership, section)
    }

    /// Whether `device` signs files of `log`'s vault: a member, or a removed device (its
    /// identity the log's), not one whose add a removal cut off.
    package static func maySign(_ device: DeviceIdentity, log: MembershipLog, membership: Membership) -> Bool {
        log.identity(of: device.deviceID) == device.publicIdentity
            && (membership.members[device.deviceID] != nil || membership.removed[device.deviceID] != nil)
    }

    /// Why this device may not write a vault with device keys, in words that say what to do.
    package static func notMemberReason(device: DeviceIdentity?, vault: String, membership: Membership) -> String {
        guard let device else {
            return "(this ledger) has no device key, and vault '\(vault)' uses device keys"
        }
        let who = "device \(device.deviceID.fingerprint) (this one)"
        if membership.removed[device.deviceID] != nil { return "\(who) was removed from vault '\(vault)'" }
        return "\(who) is not a member of vault '\(vault)' yet: approve it on a member device, "
            + "or join with the vault's recovery secret"
    }
}
