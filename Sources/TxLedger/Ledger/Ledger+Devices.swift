import TxLedgerBundle
import TxLedgerCore
import TxLedgerFolderSync
import TxLedgerMembership
import TxLedgerReplication
import TxLedgerStore

/// Device keys (Specs/devices.md): this device's identity, the vault's members, pairing,
/// removal and recovery. Every change is a signed membership operation that reaches the other
/// devices with this device's next file of the vault.
extension Ledger {
    /// This device's identity, made (and kept by `options.deviceKeys`) on first use.
    /// - Throws: `LedgerError.invalidInput` if the ledger was opened without a device key store.
    public func deviceIdentity() async throws -> DeviceIdentity {
        guard let keys = options.deviceKeys else {
            throw LedgerError.invalidInput(
                field: "device",
                reason: "this ledger was opened without a device key store (Ledger.Options.deviceKeys)"
            )
        }
        if let identity = try await keys.load() { return identity }
        let identity = DeviceIdentity.generate()
        try await keys.save(identity)
        return identity
    }

    /// Whether this device has an identity already (a ledger that has one needs no secret to
    /// sync the vaults it is a member of).
    public func hasDeviceIdentity() async throws -> Bool {
        try await options.deviceKeys?.load() != nil
    }

    /// `vault`'s members, removed devices and set-aside writes; `nil` if the vault has no
    /// device keys here.
    public func devices(vault: String) async throws -> VaultDevices? {
        try await database.devices(vault: vault, me: try await options.deviceKeys?.load()?.deviceID)
    }

    /// Makes this device a member of `vault` with the vault's recovery secret (its sync key or
    /// passphrase until replaced): the first member of a vault synced with a shared secret so
    /// far (`txledger devices init`), or another device of it. From then on this device seals
    /// the vault's files for its members and signs them; the others join at their next sync.
    @discardableResult
    public func initDevices(vault: String, secret: BundleSecret, name: String) async throws -> VaultDevices {
        let credentials = BundleCredentials(device: try await deviceIdentity(), secret: secret)
        _ = try await database.joinWithRecovery(vault: vault, name: name, credentials: credentials)
        return try await devices(vault: vault)!
    }

    /// This device's request to join `vault`, to show (as text or a QR code) or leave in the
    /// sync folder, for a member to approve after comparing its `fingerprint`.
    public func joinRequest(vault: String) async throws -> JoinRequest {
        try JoinRequest(
            vault: vault,
            name: options.joiningName,
            replica: database.replicaID,
            device: try await deviceIdentity()
        )
    }

    /// Leaves this device's request to join `vault` in the sync folder `folder`.
    /// - Returns: the request, whose `fingerprint` the user compares on the approving device.
    @discardableResult
    public func leaveJoinRequest(vault: String, folder: String) async throws -> JoinRequest {
        let request = try await joinRequest(vault: vault)
        _ = try await JoinRequestFile.write(request, folder: folder)
        return request
    }

    /// The request to join `vault` left in `folder` by the device whose fingerprint is
    /// `fingerprint` (as that device shows it), to `approve`.
    public func joinRequest(fingerprint: String, vault: String, folder: String) async throws -> JoinRequest {
        try await JoinRequestFile.find(fingerprint: fingerprint, vault: vault, folder: folder)
    }

    /// Adds the requesting device to its vault, signed by this device (a member). It gets the
    /// whole history with this device's next file of the vault.
    @discardableResult
    public func approve(_ request: JoinRequest) async throws -> VaultDevices {
        _ = try await database.approve(request, credentials: try await memberCredentials())
        return try await devices(vault: request.vault)!
    }

    /// Removes `device` from `vault`: files written from now on are sealed without it, and its
    /// writes past what this ledger holds of it never count anywhere. When it may hold the
    /// vault's recovery secret, the secret is replaced in the same step by `newRecovery`,
    /// which the caller keeps somewhere safe (the former one then approves nobody).
    public func removeDevice(_ device: DeviceID, vault: String) async throws -> DeviceRemoval {
        let (_, newRecovery) = try await database.removeDevice(
            device,
            vault: vault,
            credentials: try await memberCredentials()
        )
        return DeviceRemoval(devices: try await devices(vault: vault)!, newRecovery: newRecovery)
    }

    /// Gives a member of `vault` a new name.
    @discardableResult
    public func renameDevice(_ device: DeviceID, to name: String, vault: String) async throws -> VaultDevices {
        _ = try await database.renameDevice(device, to: name, vault: vault, credentials: try await memberCredentials())
        return try await devices(vault: vault)!
    }

    /// Replaces `vault`'s recovery secret with a new sync key, returned to be kept somewhere
    /// safe; the devices need nothing.
    public func rotateRecovery(vault: String) async throws -> SyncKey {
        try await database.rotateRecovery(vault: vault, credentials: try await memberCredentials()).1
    }

    /// Writes a set-aside write again under this device's stamps, and forgets it.
    public func restoreSetAside(_ setAside: SetAsideWrite) async throws {
        try await write { try $0.restore(setAside) }
    }

    /// What this ledger reads and writes bundles with: its device key, if it has one, and
    /// `secret`; when `joining`, a device without a key makes one as it joins a vault.
    func credentials(secret: BundleSecret?, joining: Bool = false) async throws -> BundleCredentials {
        let device = try await options.deviceKeys?.load()
        guard joining, options.deviceKeys != nil else { return BundleCredentials(device: device, secret: secret) }
        let ledger = self
        return BundleCredentials(device: device, secret: secret) { try await ledger.deviceIdentity() }
    }

    private func memberCredentials() async throws -> BundleCredentials {
        BundleCredentials(device: try await deviceIdentity(), secret: nil)
    }
}
