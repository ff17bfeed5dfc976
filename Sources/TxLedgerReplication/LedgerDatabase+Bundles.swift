import Foundation
import TxLedgerBundle
import TxLedgerCore
import TxLedgerSodium
import TxLedgerStore

/// Bundles in and out of the store: export streams stored frames into a bundle file, import
/// streams a bundle's records into one merge transaction (Specs/bundle-format.md).
extension LedgerDatabase {
    /// Writes `vault`'s changes (per `scope`) to an encrypted bundle at `path`.
    package func exportBundle(
        vault: String,
        to path: String,
        secret: BundleSecret,
        scope: ExportScope,
        passphraseCost: Argon2idCost,
        progress: (@Sendable (BundleProgress) -> Void)? = nil
    ) async throws -> BundleInfo {
        let heardSince = options.wallClock().millis - options.peerHorizonMillis
        return try await exportBundle(
            vault: vault,
            to: path,
            secret: secret,
            passphraseCost: passphraseCost,
            progress: progress
        ) { store in
            switch scope {
            case .full: 0
            case let .forPeer(peer): try store.acknowledged(vault, by: peer)
            case .knownPeers: try store.leastAcknowledged(vault, heardSince: heardSince)
            }
        }
    }

    /// Writes `vault`'s changes after the change sequence number that `since` gives (read in
    /// the export's own transaction) to a bundle at `path`.
    package func exportBundle(
        vault: String,
        to path: String,
        secret: BundleSecret,
        passphraseCost: Argon2idCost,
        progress: (@Sendable (BundleProgress) -> Void)? = nil,
        since: @escaping @Sendable (RecordStore) throws -> Int64
    ) async throws -> BundleInfo {
        try TextField.identifier.validate(vault, field: "vault")
        let ownFiles = ownFiles
        return try await read { store in
            guard try store.vaults().contains(vault) else { throw LedgerError.unknownVault(vault) }
            let header = try store.changeSetHeader(vault, since: try since(store))
            let total = progress == nil ? 0 : try store.countStored(vault: vault, changedAfter: header.since)
            let writer = try BundleWriter(path: path, secret: secret, cost: passphraseCost, sparing: ownFiles)
            var encoder = PayloadEncoder()
            encoder.encode(header)
            var count = 0
            try store.forEachStoredFrame(vault: vault, changedAfter: header.since) { frame, time, tables in
                try encoder.encode(stored: frame, timestamp: time, tables: tables)
                count += 1
                if encoder.bytes.count >= BundleWriter.chunkSize {
                    try writer.write(encoder.bytes)
                    encoder.bytes.removeAll(keepingCapacity: true)
                }
                if count % BundleProgress.recordInterval == 0 {
                    progress?(BundleProgress(phase: .exporting, completed: count, total: total))
                }
            }
            try writer.write(encoder.bytes)
            let size = try writer.finish()
            progress?(BundleProgress(phase: .exporting, completed: count, total: total))
            return BundleInfo(header: writer.header, byteCount: size, changes: header, recordCount: count)
        }
    }

    /// Imports a bundle as `importBundle(at:secret:progress:)` does if its change set's header
    /// is one that `admitting` accepts; `nil` (and nothing written) if not. A symbolic link at
    /// `path` is refused unless `followingLinks` (a sync folder's entries are never links).
    package func importBundle(
        at path: String,
        secret: BundleSecret,
        followingLinks: Bool = true,
        progress: (@Sendable (BundleProgress) -> Void)? = nil,
        admitting: @escaping @Sendable (ChangeSetHeader) -> Bool
    ) async throws -> BundleImport? {
        // The keys (Argon2id for a passphrase) and the header's checks, before the write lock.
        let (header, keys) = try await DedicatedThread.run {
            let reader = try BundleReader(path: path, secret: secret, followingLinks: followingLinks)
            return (reader.header, reader.keys)
        }
        let imported = try await write { transaction -> BundleImport? in
            let reader = try BundleReader(path: path, expecting: header, keys: keys, followingLinks: followingLinks)
            var decoder = try PayloadDecoder(reader)
            guard admitting(decoder.header) else { return nil }
            let changes = decoder.header
            // The records are decrypted and decoded on a thread of their own while the ones
            // before them merge here; a failure of either ends the transaction as before.
            let records = ProducerThread<RecordState>(
                name: "txledger.import",
                batchSize: LedgerTransaction.mergeBatchSize
            ) { yield in
                while let record = try decoder.next() {
                    try yield(record)
                    if decoder.recordCount % BundleProgress.recordInterval == 0 {
                        progress?(BundleProgress(phase: .merging, completed: reader.bytesRead, total: reader.fileSize))
                    }
                }
            }
            defer { records.stop() }
            var report = MergeReport()
            var count = 0
            try transaction.merge(
                changes,
                records: { merge in
                    try records.consume { record in
                        try merge(record)
                        count += 1
                    }
                },
                report: &report
            )
            let info = BundleInfo(header: header, byteCount: reader.fileSize, changes: changes, recordCount: count)
            return BundleImport(info: info, report: report)
        }
        guard let imported else { return nil }
        progress?(BundleProgress(phase: .merging, completed: imported.info.byteCount, total: imported.info.byteCount))
        warnAboutFutureStamps(imported.report)
        return imported
    }
}
