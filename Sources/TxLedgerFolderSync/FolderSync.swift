import Foundation
import TxLedgerBundle
import TxLedgerCore
import TxLedgerReplication
import TxLedgerStore

/// One sync of a ledger through a shared folder (Specs/folder-sync.md): read every file of
/// the folder this replica has not read, merge it, then write what changed here since this
/// replica's last file, and keep this replica's files within one full change set and a half.
package struct FolderSync {
    let database: LedgerDatabase
    /// The folder's absolute, standardized path: the key of what the ledger remembers of it.
    let folder: String
    let secret: BundleSecret
    /// The vaults to sync; `nil`: every vault of the ledger and of the folder.
    let vaults: Set<String>?

    private var report = FolderSyncReport()
    /// What the ledger remembers of the folder's files, by name.
    private var known: [String: FolderFile] = [:]

    package init(database: LedgerDatabase, folder: String, secret: BundleSecret, vaults: Set<String>?) {
        self.database = database
        self.folder = URL(fileURLWithPath: folder).standardizedFileURL.path
        self.secret = secret
        self.vaults = vaults
    }

    package mutating func run() async throws -> FolderSyncReport {
        let folder = folder
        let listing = try await DedicatedThread.run { try FolderListing(folder) }
        for name in listing.irregular {
            report.skip(
                name,
                "not a regular file (a link, a folder or a FIFO), which a sync's file never is",
                retried: false
            )
        }
        try await removeUnfinishedWrites(among: listing.temporary)
        return try await run(listing: listing.files)
    }

    /// Removes the temporary files that this ledger's writes killed before they finished left
    /// in the folder, and forgets those writes; a write still going on (another process of
    /// this ledger) holds its file's lock and is left alone.
    private func removeUnfinishedWrites(among temporary: [String]) async throws {
        let folder = folder
        let unfinished = try await database.read { try $0.unfinishedWrites(folder) }
        guard !unfinished.isEmpty else { return }
        let ended = try await DedicatedThread.run {
            unfinished.filter { name in
                let left = temporary.filter { AtomicFile.isTemporary($0, of: name) }
                return left.allSatisfy { AtomicFile.removeIfAbandoned(folder + "/" + $0) }
            }
        }
        try await database.write { transaction in
            for name in ended { try transaction.store.noteWrite(folder, name: name, finished: true) }
        }
    }

    /// The sync, given the folder's names and sizes as listed: a file may vanish after it.
    mutating func run(listing: [String: Int]) async throws -> FolderSyncReport {
        let folder = folder
        known = Dictionary(
            uniqueKeysWithValues: try await database.read { try $0.folderFiles(folder) }.map { ($0.name, $0) }
        )
        let gone = known.keys.filter { listing[$0] == nil }
        if !gone.isEmpty {
            try await database.write { try $0.store.forgetFolderFiles(folder, names: gone) }
            for name in gone { known[name] = nil }
        }
        report.peersDropped = try await database.dropPeersBeyondLimits()
        let before = database.replicaID
        for (name, size) in listing.sorted(by: { $0.key < $1.key }) {
            try await read(name, size: size)
        }
        // A file restored or copied took a new id while reading: the files of its former id are
        // merged here, and what it writes now, under its new id, carries them.
        let former = database.replicaID != before ? known.values.filter { $0.origin == before } : []
        do {
            for vault in try await vaultsToWrite() {
                try await write(vault)
            }
            try await remove(former)
        } catch let error as BundleError where error.code == .io {
            report.notWritten = error.reason
        }
        return report
    }

    // MARK: - Reading

    private mutating func read(_ name: String, size: Int) async throws {
        switch FolderFileName.kind(of: name) {
        case .other:
            return
        case .conflictCopy:
            report.skip(name, "a copy the sync service made of another file, which is read instead", retried: false)
        case .placeholder:
            report.skip(name, "not downloaded yet (an iCloud placeholder)", retried: true)
        case .bundle:
            guard known[name] == nil else { return }
            guard size > 0 else {
                report.skip(name, "empty (an upload in progress?)", retried: true)
                return
            }
            let vaults = vaults
            do {
                guard
                    let imported = try await database.importBundle(
                        at: folder + "/" + name,
                        secret: secret,
                        followingLinks: false,
                        admitting: { vaults?.contains($0.vaultId) ?? true }
                    ),
                    let changes = imported.info.changes
                else { return }
                let file = FolderFile(name: name, size: imported.info.byteCount, changes: changes, written: false)
                let folder = folder
                try await database.write { try $0.store.rememberFolderFile(folder, file) }
                known[name] = file
                report.vaults[changes.vaultId, default: .init()].filesRead += 1
                report.vaults[changes.vaultId, default: .init()].recordsAdded += imported.report.recordsAdded
                report.vaults[changes.vaultId, default: .init()].recordsChanged += imported.report.recordsChanged
                if let renamed = imported.report.newReplicaID { report.newReplicaID = renamed }
                report.peersDropped.merge(imported.report.peersDropped, uniquingKeysWith: +)
            } catch let error as BundleError {
                report.skip(name, Self.reason(error), retried: true)
            }
        }
    }

    /// Why a file was not read. The next sync tries it again: only what was merged is
    /// remembered.
    private static func reason(_ error: BundleError) -> String {
        switch error.code {
        case .wrongSecret, .secretKindMismatch:
            "written with another key or passphrase (another user sharing the folder?)"
        case .truncated, .payloadTampered, .trailingData, .headerTampered:
            "damaged or cut short (an upload in progress?)"
        case .unsupportedVersion: "written by a newer TxLedger in a format this version cannot read: update TxLedger"
        case .notABundle: "not a TxLedger bundle"
        case .malformedContent: "authentic, but its content is invalid"
        case .io: "could not be read (\(error.reason ?? "")); it may have been removed meanwhile"
        default: error.localizedDescription
        }
    }

    // MARK: - Writing

    private func vaultsToWrite() async throws -> [String] {
        let held = try await database.read { try $0.vaults() }
        return vaults.map { selected in held.filter(selected.contains) } ?? held
    }

    /// Writes what changed since this replica's last file of `vault` (everything, when none of
    /// its files is in the folder), then compacts: once its later files weigh more than half of
    /// its latest full one, it writes a full one. Every other file under its replica id (older
    /// ones, and those another process or a copy of this file wrote, read here) is removed.
    private mutating func write(_ vault: String) async throws {
        let me = database.replicaID
        var mine = known.values.filter { $0.written && $0.vault == vault && $0.origin == me }.sorted {
            $0.through < $1.through
        }
        if let last = mine.last, mine.contains(where: \.isFull) {
            if try await changed(vault, after: last.through) {
                mine.append(try await export(vault, since: last.through))
            }
        } else {
            mine.append(try await export(vault, since: 0))
        }
        guard var base = mine.last(where: \.isFull) else { preconditionFailure("a full file was written or kept") }
        var later = mine.filter { $0.through > base.through }
        if later.map(\.size).reduce(0, +) > base.size / 2 {
            base = try await export(vault, since: 0)
            later = []
        }
        let keep = Set([base.name] + later.map(\.name))
        try await remove(known.values.filter { $0.vault == vault && $0.origin == me && !keep.contains($0.name) })
    }

    private func changed(_ vault: String, after seq: Int64) async throws -> Bool {
        try await database.read { store in
            try store.countStored(vault: vault, changedAfter: seq) > 0 || store.watermark(vault).changeSeq > seq
        }
    }

    /// Writes a new file of `vault`'s changes after `since` and remembers it.
    private mutating func export(_ vault: String, since: Int64) async throws -> FolderFile {
        let (name, folder) = (FolderFileName.random(), folder)
        try await database.write { try $0.store.noteWrite(folder, name: name, finished: false) }
        let info = try await database.exportBundle(
            vault: vault,
            to: folder + "/" + name,
            secret: secret,
            passphraseCost: .moderate
        ) { _ in since }
        guard let changes = info.changes else { preconditionFailure("an export knows its change set") }
        let file = FolderFile(name: name, size: info.byteCount, changes: changes, written: true)
        try await database.write { transaction in
            try transaction.store.rememberFolderFile(folder, file)
            try transaction.store.noteWrite(folder, name: name, finished: true)
        }
        known[name] = file
        report.vaults[vault, default: .init()].filesWritten += 1
        return file
    }

    /// Removes `files` from the folder (one already gone is fine) and from what the ledger
    /// remembers.
    private mutating func remove(_ files: [FolderFile]) async throws {
        guard !files.isEmpty else { return }
        let folder = folder
        try await DedicatedThread.run {
            for file in files { try? FileManager.default.removeItem(atPath: folder + "/" + file.name) }
        }
        try await database.write { try $0.store.forgetFolderFiles(folder, names: files.map(\.name)) }
        for file in files {
            known[file.name] = nil
            report.vaults[file.vault, default: .init()].filesRemoved += 1
        }
    }
}
