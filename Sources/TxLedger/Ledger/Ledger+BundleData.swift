import Foundation
import TxLedgerBundle
import TxLedgerCore
import TxLedgerSodium

extension Ledger {
    /// `vault`'s changes (per `scope`) as an encrypted bundle in memory, for an app that sends
    /// it itself (a share sheet, its own transport). The bundle is written as
    /// `exportBundle(vault:to:secret:scope:)` writes a file, to a private temporary file that is
    /// read back and removed; memory holds the whole bundle.
    /// - Throws: what `exportBundle(vault:to:secret:scope:)` throws.
    public func exportBundle(
        vault: String,
        secret: BundleSecret? = nil,
        scope: ExportScope = .knownPeers,
        passphraseCost: Argon2idCost = .moderate
    ) async throws -> Data {
        let path = Self.temporaryBundlePath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await exportBundle(vault: vault, to: path, secret: secret, scope: scope, passphraseCost: passphraseCost)
        return try await DedicatedThread.run {
            do {
                return try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw BundleError.io(path: path, reason: "the bundle just written cannot be read back")
            }
        }
    }

    /// Imports a bundle held in memory (received by an app's own transport), as
    /// `importBundle(at:secret:)` imports a file: in one transaction, committed only if it reads whole.
    /// - Throws: what `importBundle(at:secret:)` throws.
    @discardableResult
    public func importBundle(_ bundle: Data, secret: BundleSecret? = nil) async throws -> BundleImport {
        let path = Self.temporaryBundlePath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await DedicatedThread.run {
            guard FileManager.default.createFile(atPath: path, contents: bundle, attributes: [.posixPermissions: 0o600])
            else {
                throw BundleError.io(path: path, reason: "the temporary folder cannot be written")
            }
        }
        return try await importBundle(at: path, secret: secret)
    }

    /// A new path for a bundle in the system's temporary folder.
    private static func temporaryBundlePath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("txledger-\(UUID().uuidString).txb").path
    }
}
