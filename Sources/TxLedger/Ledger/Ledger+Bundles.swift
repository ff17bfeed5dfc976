import TxLedgerBundle
import TxLedgerCore
import TxLedgerMembership
import TxLedgerReplication
import TxLedgerSodium

extension Ledger {
    /// Writes `vault`'s changes (per `scope`) to an encrypted bundle at `path`, streaming from
    /// the database: memory stays bounded whatever the vault's size. The file appears only
    /// once complete (it is written next to `path` and renamed); an existing one is replaced.
    /// - Parameters:
    ///   - vault: the vault to export.
    ///   - path: the bundle file to write.
    ///   - secret: the sync key or passphrase that seals it, for a vault without device keys
    ///     here; a vault with device keys is sealed for its members and signed by this device.
    ///   - scope: which changes it carries (by default what some known peer lacks).
    ///   - passphraseCost: Argon2id's cost when `secret` is a passphrase (default MODERATE).
    ///   - progress: called every thousand records with how far the export has come.
    /// - Throws: `LedgerError.unknownVault` if this ledger holds nothing of `vault`;
    ///   `BundleError.io` if the file cannot be written or `path` is one of the ledger's own database files.
    @discardableResult
    public func exportBundle(
        vault: String,
        to path: String,
        secret: BundleSecret? = nil,
        scope: ExportScope = .knownPeers,
        passphraseCost: Argon2idCost = .moderate,
        progress: (@Sendable (BundleProgress) -> Void)? = nil
    ) async throws -> BundleInfo {
        try await database.exportBundle(
            vault: vault,
            to: path,
            credentials: try await credentials(secret: secret),
            scope: scope,
            passphraseCost: passphraseCost,
            progress: progress
        )
    }

    /// Imports a bundle in one pass and one transaction: each chunk is authenticated as it is
    /// read and each record validated and merged as it is decoded; the transaction commits only
    /// once the whole file has authenticated, to its final chunk, and rolls back on any failure.
    /// A bundle that fails any check leaves the ledger exactly as it was; importing the same
    /// bundle again changes nothing.
    /// A bundle sealed for a vault's devices (format 5) is opened with this device's key, or
    /// with the recovery identity `secret` derives for one of this ledger's vaults or `vault`;
    /// its author must be a member and its signature must verify (Specs/devices.md). A file of
    /// a device the vault removed changes no record: its writes past its cut are set aside
    /// (`devices(vault:)`), and it throws `BundleError.notAMember`.
    /// - Throws: `BundleError` for the bundle (wrong secret, tampered, truncated, malformed,
    ///   not a recipient, not a member, bad signature...), `LedgerError` for the ledger.
    @discardableResult
    public func importBundle(
        at path: String,
        secret: BundleSecret? = nil,
        vault: String? = nil,
        progress: (@Sendable (BundleProgress) -> Void)? = nil
    ) async throws -> BundleImport {
        guard
            let imported = try await database.importBundle(
                at: path,
                credentials: try await credentials(secret: secret),
                vaults: vault.map { [$0] } ?? [],
                progress: progress,
                admitting: { _ in true }
            )
        else {
            preconditionFailure("every change set is admitted")
        }
        // A removed device's file: its writes were set aside, and nothing of it counts.
        if let refusal = imported.refusal { throw refusal }
        return imported
    }
}
