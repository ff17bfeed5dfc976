import TxLedgerBundle
import TxLedgerReplication

/// What removing a device did.
public struct DeviceRemoval: Sendable {
    public let devices: VaultDevices
    /// The vault's new recovery secret, when the removal replaced it.
    public let newRecovery: SyncKey?
}
