/// Which of a vault's changes an exported bundle carries.
public enum ExportScope: Sendable, Equatable {
    /// Everything this replica holds of the vault.
    case full
    /// What `peer` has not acknowledged (everything if it never said).
    case forPeer(ReplicaID)
    /// What some peer of the vault has not acknowledged yet: everything after the least change
    /// that every peer heard from within `Ledger.Options.peerHorizonMillis` holds, so any of
    /// them can use the bundle; everything if there is none. A peer not heard from for longer,
    /// or forgotten, no longer holds deltas back; when it comes back it says what it holds and
    /// gets the rest (crdt.md, "Deltas").
    case knownPeers
}

/// What importing a bundle did.
public struct BundleImport: Sendable, Equatable {
    public let info: BundleInfo
    public let report: MergeReport
}

extension Ledger {
    /// Writes `vault`'s changes (per `scope`) to an encrypted bundle at `path`, streaming from
    /// the database: memory stays bounded whatever the vault's size. The file appears only
    /// once complete (it is written next to `path` and renamed); an existing one is replaced.
    /// - Parameters:
    ///   - vault: the vault to export.
    ///   - path: the bundle file to write.
    ///   - secret: the sync key or passphrase that seals it.
    ///   - scope: which changes it carries (by default what some known peer lacks).
    ///   - passphraseCost: Argon2id's cost when `secret` is a passphrase (default MODERATE).
    ///   - progress: called every thousand records with how far the export has come.
    /// - Throws: `LedgerError.unknownVault` if this ledger holds nothing of `vault`;
    ///   `BundleError.io` if the file cannot be written or `path` is one of the ledger's own database files.
    @discardableResult
    public func exportBundle(
        vault: String,
        to path: String,
        secret: BundleSecret,
        scope: ExportScope = .knownPeers,
        passphraseCost: Argon2idCost = .moderate,
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
    func exportBundle(
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

    /// Imports a bundle in one pass and one transaction: each chunk is authenticated as it is
    /// read and each record validated and merged as it is decoded; the transaction commits only
    /// once the whole file has authenticated, to its final chunk, and rolls back on any failure.
    /// A bundle that fails any check leaves the ledger exactly as it was; importing the same
    /// bundle again changes nothing.
    /// - Throws: `BundleError` for the bundle (wrong secret, tampered, truncated, malformed...),
    ///   `LedgerError` for the ledger.
    @discardableResult
    public func importBundle(
        at path: String,
        secret: BundleSecret,
        progress: (@Sendable (BundleProgress) -> Void)? = nil
    ) async throws -> BundleImport {
        guard
            let imported = try await importBundle(
                at: path,
                secret: secret,
                progress: progress,
                admitting: { _ in true }
            )
        else {
            preconditionFailure("every change set is admitted")
        }
        return imported
    }

    /// Imports a bundle as `importBundle(at:secret:progress:)` does if its change set's header
    /// is one that `admitting` accepts; `nil` (and nothing written) if not. A symbolic link at
    /// `path` is refused unless `followingLinks` (a sync folder's entries are never links).
    func importBundle(
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
