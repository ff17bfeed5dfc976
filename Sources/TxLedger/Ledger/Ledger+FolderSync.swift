import TxLedgerBundle
import TxLedgerCore
import TxLedgerFolderSync
import TxLedgerReplication

extension Ledger {
    /// Syncs through a shared folder (a cloud drive, a NAS, a USB stick; Specs/folder-sync.md):
    /// reads every other device's file that is new since the last call and merges it, writes
    /// what this device's peers may lack, and keeps its own files bounded. Run again, it does
    /// only what is new. Files it cannot use (a conflict copy, an upload in progress, another
    /// secret's file...) are skipped, each with its reason in the report, and never stop the
    /// others; a folder it cannot write to is still read.
    /// - Parameters:
    ///   - folder: the shared folder's path.
    ///   - secret: the sync key or passphrase the vaults' bundles are sealed with; with
    ///     device keys (Specs/devices.md), the recovery secret, which a device that is not a
    ///     member yet joins with, or `nil`: a member needs none.
    ///   - vaults: the vaults to sync; `nil`: every vault of this ledger and every vault of
    ///     the folder that this device (or `secret`) opens.
    /// - Throws: `BundleError.io` if the folder cannot be listed; `LedgerError` for the ledger.
    public func sync(
        folder: String,
        secret: BundleSecret? = nil,
        vaults: [String]? = nil
    ) async throws
        -> FolderSyncReport
    {
        for vault in vaults ?? [] { try TextField.identifier.validate(vault, field: "vault") }
        var sync = FolderSync(
            database: database,
            folder: folder,
            credentials: try await credentials(secret: secret, joining: true),
            vaults: vaults.map(Set.init),
            deviceName: options.joiningName
        )
        return try await sync.run()
    }
}
