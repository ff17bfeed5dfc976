import Foundation

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerReplication

/// Secrets and helpers for bundle tests. Passphrase bundles use Argon2id's INTERACTIVE cost.
enum BundleFixture {
    static let passphraseText = "correct horse battery staple"

    static func passphrase() throws -> BundleSecret { .passphrase(try Passphrase(passphraseText)) }

    /// The header of a full change set of vault-1 from replica 7 that knows nothing, for a
    /// payload a test writes by hand.
    static var header: ChangeSetHeader {
        ChangeSetHeader(
            vaultId: "vault-1",
            origin: ReplicaID(rawValue: 7),
            since: 0,
            through: 1,
            knowledge: [:],
            clearedThrough: nil
        )
    }

    /// One secret of each kind.
    static func secrets() throws -> [BundleSecret] { [.syncKey(SyncKey.generate()), try passphrase()] }

    /// Exports `vault` of `from` to a bundle in `directory` and imports it into `to`.
    @discardableResult
    static func transfer(
        _ vault: String = "vault-1",
        from: Ledger,
        to: Ledger,
        secret: BundleSecret,
        in directory: TemporaryDirectory,
        scope: ExportScope = .knownPeers
    ) async throws -> (exported: BundleInfo, imported: BundleImport) {
        let path = directory.path("\(UUID().uuidString).txb")
        let exported = try await from.exportBundle(
            vault: vault,
            to: path,
            secret: secret,
            scope: scope,
            passphraseCost: .interactive
        )
        return (exported, try await to.importBundle(at: path, secret: secret))
    }

    /// A bundle of `payload` exactly as given (authentic, whatever it holds), written to a new
    /// file in `directory`: the way to hand the reader content no honest writer produces.
    /// Written on a thread of its own (Argon2id for a passphrase).
    static func seal(
        _ payload: [UInt8],
        with secret: BundleSecret,
        in directory: TemporaryDirectory,
        version: UInt8 = BundleHeader.currentVersion
    ) async throws -> String {
        let path = directory.path("\(UUID().uuidString).txb")
        try await DedicatedThread.run {
            let writer = try BundleWriter(path: path, secret: secret, cost: .interactive, version: version)
            try writer.write(payload)
            _ = try writer.finish()
        }
        return path
    }

    /// Reads the bundle at `path` to its end, as `import` does, on a thread of its own.
    static func decode(_ path: String, secret: BundleSecret) async throws -> ChangeSet {
        try await DedicatedThread.run {
            var decoder = try PayloadDecoder(BundleReader(path: path, secret: secret))
            var records: [RecordState] = []
            while let record = try decoder.next() { records.append(record) }
            return ChangeSet(header: decoder.header, records: records)
        }
    }

    /// `changes` after a trip through a bundle: encoded as an export encodes it, sealed, read
    /// back and decoded as an import decodes it.
    static func throughBundle(
        _ changes: ChangeSet,
        with secret: BundleSecret,
        in directory: TemporaryDirectory
    ) async throws -> ChangeSet {
        var encoder = PayloadEncoder()
        encoder.encode(changes.header)
        for record in changes.records { encoder.encode(record) }
        let path = try await seal(encoder.bytes, with: secret, in: directory)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await decode(path, secret: secret)
    }

    /// A ledger whose vault-1 bundle spans several chunks: `count` full sends.
    static func manyRecords(_ count: Int = 700) throws -> [TransactionRecord] {
        try (1...count).map { try Fixture.send(hash: $0, at: Fixture.start.addingTimeInterval(Double($0))) }
    }
}

extension BundleSecret {
    var name: String { mode == .syncKey ? "sync key" : "passphrase" }
}
