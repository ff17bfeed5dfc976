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
        credentials: BundleCredentials,
        scope: ExportScope,
        passphraseCost: Argon2idCost,
        progress: (@Sendable (BundleProgress) -> Void)? = nil
    ) async throws -> BundleInfo {
        let heardSince = options.wallClock().millis - options.peerHorizonMillis
        return try await exportBundle(
            vault: vault,
            to: path,
            credentials: credentials,
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
    /// the export's own transaction) to a bundle at `path`: sealed for the vault's members and
    /// signed by this device (format 5) once the vault has device keys here, else sealed with
    /// the shared secret.
    /// - Throws: `BundleError.notAMember` for a vault with device keys of which this device is
    ///   not a member; `LedgerError.invalidInput` for one without, when no secret is given.
    package func exportBundle(
        vault: String,
        to path: String,
        credentials: BundleCredentials,
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
            let (writer, devices) = try credentials.writer(
                for: vault,
                at: path,
                store: store,
                cost: passphraseCost,
                sparing: ownFiles
            )
            var encoder = PayloadEncoder()
            encoder.encode(header, devices: devices)
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
    ///
    /// A format 5 file is opened with this device's identity, or with the recovery identity
    /// the secret derives for one of the ledger's vaults or of `vaults`; its membership log is
    /// merged, its author must be a member and its signature must verify, and the registers
    /// its vault's cuts refuse are set aside. A file of an older format is refused for a vault
    /// with device keys here. `folder`: a file of a shared folder (`FolderRead`).
    package func importBundle(
        at path: String,
        credentials: BundleCredentials,
        vaults: [String] = [],
        followingLinks: Bool = true,
        progress: (@Sendable (BundleProgress) -> Void)? = nil,
        folder: FolderRead? = nil,
        admitting: @escaping @Sendable (ChangeSetHeader) -> Bool
    ) async throws -> BundleImport? {
        // The keys (Argon2id for a passphrase) and the header's checks, before the write lock.
        let held = try await read { try $0.vaults() }
        let (header, keys) = try await credentials.open(
            path,
            followingLinks: followingLinks,
            vaults: Array(Set(held + vaults)).sorted()
        )
        let imported = try await writeIntoEmpty { transaction -> BundleImport? in
            let reader = try BundleReader(path: path, expecting: header, keys: keys, followingLinks: followingLinks)
            var decoder = try PayloadDecoder(reader)
            guard admitting(decoder.header) else { return nil }
            let changes = decoder.header
            var report = MergeReport()
            var admission: LedgerTransaction.Admission?
            if let devices = decoder.devices {
                admission = try transaction.admit(devices, vault: changes.vaultId, report: &report)
            } else {
                try transaction.requireNoDevices(changes.vaultId)
            }
            // The records are decrypted and decoded on a thread of their own while the ones
            // before them merge here; a failure of either ends the transaction as before.
            // Optional, so that the merge takes each one out of its batch (`take`).
            let records = ProducerThread<(record: ReceivedRecord, bytes: Int)?>(
                name: "txledger.import",
                limit: LedgerTransaction.mergeBatch
            ) { yield in
                while let received = try decoder.nextReceived() {
                    let bytes = decoder.lastFrameBytes
                    try yield((received, bytes), bytes)
                    if decoder.recordCount % BundleProgress.recordInterval == 0 {
                        progress?(BundleProgress(phase: .merging, completed: reader.bytesRead, total: reader.fileSize))
                    }
                }
            }
            defer { records.stop() }
            var count = 0
            let each: ((consuming RecordState, consuming ReceivedFrame?, Int) throws -> Void) throws -> Void = {
                merge in
                while var batch = try records.next() {
                    // Each record moves out of its batch into the merge instead of being copied
                    // there and freed with the batch (reversing the batch to pop it from its
                    // end swapped each record by copying it).
                    for index in batch.indices {
                        let ((state, frame), bytes) = batch[index].take()!
                        try merge(state, frame, bytes)
                        count += 1
                    }
                }
            }
            var coverage: FullCoverage?
            if let admission, admission.refusal != nil {
                try transaction.setAside(
                    records: { setAside in try each { record, _, _ in try setAside(record) } },
                    membership: admission.membership,
                    report: &report
                )
            } else {
                coverage = try transaction.merge(
                    changes,
                    membership: admission?.membership,
                    folder: folder,
                    records: each,
                    report: &report
                )
                // With device keys, a file covers only if it carried this replica's whole log.
                if let admission { coverage = admission.wholeLog.flatMap { log in coverage.map { $0.under(log) } } }
            }
            // Before the transaction commits: a file its author did not sign leaves nothing.
            if let admission, !reader.verifySignature(author: admission.author) { throw BundleError.badSignature }
            let info = BundleInfo(header: header, byteCount: reader.fileSize, changes: changes, recordCount: count)
            return BundleImport(info: info, report: report, refusal: admission?.refusal, coverage: coverage)
        }
        guard let imported else { return nil }
        progress?(BundleProgress(phase: .merging, completed: imported.info.byteCount, total: imported.info.byteCount))
        warnAboutFutureStamps(imported.report)
        return imported
    }
}
