import Foundation
import TxLedgerBundle
import TxLedgerCore
import TxLedgerMembership
import TxLedgerReplication
import TxLedgerStore

/// One sync of a ledger through a shared folder (Specs/folder-sync.md): read every file of
/// the folder this replica has not read, merge it, then write what changed here since this
/// replica's last file, and keep this replica's files within one full change set and a half.
package struct FolderSync {
    let database: LedgerDatabase
    /// The folder's absolute, standardized path: the key of what the ledger remembers of it.
    let folder: String
    /// This device's identity and the shared (or recovery) secret, either of which may be absent.
    let credentials: BundleCredentials
    /// The vaults to sync; `nil`: every vault of the ledger and of the folder.
    let vaults: Set<String>?
    /// The name this device takes when it joins a vault with the recovery secret.
    let deviceName: String

    private var report = FolderSyncReport()
    /// What the ledger remembers of the folder's files, by name.
    private var known: [String: FolderFile] = [:]
    /// Whether the ledger held a vault when the sync began.
    private var holdsVaults = true

    package init(
        database: LedgerDatabase,
        folder: String,
        credentials: BundleCredentials,
        vaults: Set<String>?,
        deviceName: String
    ) {
        self.database = database
        self.folder = URL(fileURLWithPath: folder).standardizedFileURL.path
        self.credentials = credentials
        self.vaults = vaults
        self.deviceName = deviceName
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
        holdsVaults = try await !database.read { try $0.vaults() }.isEmpty
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
        let vaults = try await vaultsToWrite()
        do {
            for vault in vaults {
                try await write(vault)
            }
            try await remove(former)
        } catch let error as BundleError where error.code == .io {
            report.notWritten = error.reason
        }
        for vault in vaults {
            let lagging = try await database.peersNotReading(vault: vault)
            if !lagging.isEmpty { report.vaults[vault, default: .init()].notReadingOurFiles = lagging }
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
        case .notice:
            try await readNotice(name)
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
                        credentials: credentials,
                        vaults: vaults.map { Array($0) } ?? [],
                        followingLinks: false,
                        folder: FolderRead(points: filesPoints()),
                        admitting: { vaults?.contains($0.vaultId) ?? true }
                    ),
                    let changes = imported.info.changes
                else { return }
                let file = adoption(of: name, imported, changes: changes)
                let folder = folder
                let remembered = try await database.write { transaction in
                    try transaction.store.rememberFolderFile(folder, file)
                    // An adoption ends the vault's former one.
                    return file.coversThrough == nil ? nil : try transaction.store.folderFiles(folder)
                }
                if let remembered {
                    known = Dictionary(uniqueKeysWithValues: remembered.map { ($0.name, $0) })
                } else {
                    known[name] = file
                }
                report.vaults[changes.vaultId, default: .init()].writesSetAside += imported.report.writesSetAside
                if let refusal = imported.refusal {
                    // Read once: a removed device never becomes a member again.
                    report.skip(name, refusal.localizedDescription, retried: false)
                    return
                }
                report.vaults[changes.vaultId, default: .init()].filesRead += 1
                report.vaults[changes.vaultId, default: .init()].recordsAdded += imported.report.recordsAdded
                report.vaults[changes.vaultId, default: .init()].recordsChanged += imported.report.recordsChanged
                report.vaults[changes.vaultId, default: .init()].count(imported.report.clears)
                if let renamed = imported.report.newReplicaID { report.newReplicaID = renamed }
                report.peersDropped.merge(imported.report.peersDropped, uniquingKeysWith: +)
            } catch let error as BundleError {
                report.skip(name, reason(error), retried: true)
            }
        }
    }

    /// How this replica remembers a file it merged: another device's full file that held
    /// everything held here is adopted in place of a full file of its own (`FolderBase.adopts`);
    /// one that did not is a rival its next full file will hold (folder-sync.md, "Adopting
    /// another device's full file").
    private func adoption(of name: String, _ imported: BundleImport, changes: ChangeSetHeader) -> FolderFile {
        let me = database.replicaID
        let ownFull = known.values.filter { $0.written && $0.isFull && $0.vault == changes.vaultId && $0.origin == me }
            .max { $0.through < $1.through }
        guard changes.isFull, changes.origin != me, imported.refusal == nil else {
            return FolderFile(name: name, size: imported.info.byteCount, changes: changes, written: false)
        }
        guard let coverage = imported.coverage else {
            return FolderFile(name: name, size: imported.info.byteCount, changes: changes, written: false, rival: true)
        }
        let adopted = FolderBase.adopts(
            name,
            holdsMore: coverage.holdsMore,
            membership: coverage.membership,
            over: ownFull,
            adopted: adoptedFile(changes.vaultId)
        )
        return FolderFile(
            name: name,
            size: imported.info.byteCount,
            changes: changes,
            written: false,
            membership: adopted ? coverage.membership : nil,
            coversThrough: adopted ? coverage.through : nil
        )
    }

    /// The other device's full file of `vault` that this replica adopted, if it is still in the
    /// folder: one at most (an adoption ends the one before it, and a full file written ends
    /// any).
    private func adoptedFile(_ vault: String) -> FolderFile? {
        known.values.first { $0.vault == vault && $0.coversThrough != nil }
    }

    /// Per vault, the change number through which this replica's changes are in files of the
    /// folder (its latest file's `through`, or the point of the file it adopted, whichever is
    /// later): a full file that holds every record this replica has not changed after it
    /// covers it, and its next delta starts there (folder-sync.md).
    private func filesPoints() -> [String: Int64] {
        let me = database.replicaID
        var points: [String: Int64] = [:]
        for file in known.values {
            let point = file.written && file.origin == me ? file.through : file.coversThrough
            if let point, point > 0 { points[file.vault] = max(points[file.vault] ?? 0, point) }
        }
        return points
    }

    /// Reads another device's membership notice (each sync: it is replaced in place), and
    /// notes a removal of this device it brings.
    private mutating func readNotice(_ name: String) async throws {
        if let device = credentials.device {
            let held = try await database.read { try $0.vaultsWithDevices() }
            if held.contains(where: { FolderFileName.notice(of: device, vault: $0) == name }) { return }
        }
        let vaults = vaults
        do {
            guard
                let imported = try await database.importNotice(
                    at: folder + "/" + name,
                    credentials: credentials,
                    vaults: vaults.map { Array($0) } ?? [],
                    admitting: { vaults?.contains($0) ?? true }
                )
            else { return }
            report.vaults[imported.vault, default: .init()].writesSetAside += imported.writesSetAside
        } catch let error as BundleError {
            // A device not approved yet cannot open the others' notices: that is no news.
            if error.code != .notARecipient { report.skip(name, reason(error), retried: true) }
        }
    }

    /// Why a file was not read. The next sync tries it again: only what was merged is
    /// remembered.
    private func reason(_ error: BundleError) -> String {
        switch error.code {
        case .wrongSecret:
            "written with another key or passphrase (another user sharing the folder?)"
        case .secretKindMismatch:
            "sealed with a shared secret this sync was not given (give the vault's key or passphrase)"
        case .notARecipient where credentials.secret != nil && vaults == nil && !holdsVaults:
            "sealed for the vault's devices, and neither this device nor the secret opens it: this device was "
                + "removed, or is not approved yet; or the secret is the vault's recovery secret and this ledger "
                + "holds nothing of the vault yet (name it: --vault)"
        case .notARecipient:
            "sealed for the vault's devices, and this device is not among them: it was removed from the vault, "
                + "or is not approved yet"
        case .notAMember, .badSignature: error.localizedDescription
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

    /// Writes what changed here since this replica's last file of `vault` (everything, when
    /// it has no base in the folder: neither a full file of its own nor one it adopted), then
    /// compacts: once its later files weigh more than half of their base, it writes a full one.
    /// A full file is also written when another device's full file it read did not hold
    /// everything held here (a rival: this one will, and its writer can adopt it), and, with
    /// device keys, whenever the vault's membership log has changed since its base (devices.md,
    /// "Format 5": a new recipient gets the whole history, a removed one nothing more). Every
    /// other file under its replica id is removed (older ones, those another process or a
    /// copy of this file wrote, and all of them once it adopted another device's full file).
    private mutating func write(_ vault: String) async throws {
        guard case let .write(membership, notices) = try await mayWrite(vault) else { return }
        let me = database.replicaID
        let mine = known.values.filter { $0.written && $0.vault == vault && $0.origin == me }.sorted {
            $0.through < $1.through
        }
        let ownFull = mine.last(where: \.isFull)
        var base = FolderBase.latest(own: ownFull, adopted: adoptedFile(vault), membership: membership)
        // A peer that keeps syncing without taking this device's files may not read them
        // (damaged in the folder, say): the whole history is written again once.
        let unread = try await database.read { store in
            try store.peers(vault).compactMap { $0.waitingFor?.isOverdue == true ? $0.waitingFor?.seq : nil }.max()
        }
        let rewrite = unread.map { $0 > ownFull?.through ?? 0 } ?? false
        let rivals = base?.file.written == true && known.values.contains { $0.vault == vault && $0.rival }
        var later: [FolderFile] = []
        if let current = base, !rewrite, !rivals {
            later = mine.filter { !$0.isFull && $0.through > current.point }
            let last = later.last?.through ?? current.point
            if try await changed(vault, after: last) {
                later.append(try await export(vault, since: last, membership: membership))
            }
        } else {
            base = try await writeFull(vault, membership: membership)
        }
        guard var base else { preconditionFailure("a full file was written or kept") }
        if later.map(\.size).reduce(0, +) > base.file.size / 2 {
            base = try await writeFull(vault, membership: membership)
            later = []
        }
        // Notices tell devices that are not members what they cannot read elsewhere: none
        // before a removal or a rotation. Kept in step with the log (read back: a file of the
        // folder may be older, damaged or gone).
        if notices, let device = credentials.device {
            let notice = folder + "/" + FolderFileName.notice(of: device, vault: vault)
            if try await !database.holdsCurrentNotice(vault: vault, at: notice, credentials: credentials) {
                try await database.writeNotice(vault: vault, to: notice, credentials: credentials)
            }
        }
        let keep = Set([base.file.name] + later.map(\.name))
        try await remove(known.values.filter { $0.vault == vault && $0.origin == me && !keep.contains($0.name) })
    }

    /// Writes a full file of `vault`, which holds every rival read so far and replaces an
    /// adopted file as its base.
    private mutating func writeFull(_ vault: String, membership: [UInt8]?) async throws -> FolderBase {
        let file = try await export(vault, since: 0, membership: membership)
        let folder = folder
        let remembered = try await database.write { transaction in
            try transaction.store.noteFullFileWritten(folder, vault: vault)
            return try transaction.store.folderFiles(folder)
        }
        known = Dictionary(uniqueKeysWithValues: remembered.map { ($0.name, $0) })
        return FolderBase(file: file, point: file.through)
    }

    private func changed(_ vault: String, after seq: Int64) async throws -> Bool {
        try await database.read { store in
            try store.countStored(vault: vault, changedAfter: seq) > 0 || store.watermark(vault).changeSeq > seq
        }
    }

    /// Whether this device may write `vault`'s files: with the shared secret (a vault without
    /// device keys here; `membership` nil), or as a member or a removed device (the digest of
    /// the log it writes under; the others set a removed device's records aside but keep its
    /// removals). A device that holds the recovery secret and is not a member joins first; one
    /// that may not write has the reason in the report.
    private enum WriteRight: Equatable {
        /// `notices`: the log holds a removal or a rotation, so a membership notice is written
        /// too.
        case write(membership: [UInt8]?, notices: Bool)
        case refused
    }

    private mutating func mayWrite(_ vault: String) async throws -> WriteRight {
        guard let membership = try await database.membership(vault: vault) else {
            guard credentials.secret != nil else {
                report.vaults[vault, default: .init()].notWritten =
                    "vault '\(vault)' has no device keys here, and no key or passphrase was given"
                return .refused
            }
            return .write(membership: nil, notices: false)
        }
        let device = credentials.secret == nil ? credentials.device : try await credentials.deviceMadeIfNeeded()
        if let device, membership.members[device.deviceID]?.identity != device.publicIdentity,
            membership.removed[device.deviceID] == nil, credentials.secret != nil
        {
            do {
                let joined = try await database.joinWithRecovery(
                    vault: vault,
                    name: deviceName,
                    credentials: credentials
                )
                report.vaults[vault, default: .init()].joined = joined.members[device.deviceID] != nil
            } catch let error as LedgerError where error.code == .invalidInput {
                report.vaults[vault, default: .init()].notWritten = error.reason
                return .refused
            }
        }
        guard let log = try await database.read({ try $0.membershipLog(vault) }), let device,
            case let now = log.evaluate(), BundleCredentials.maySign(device, log: log, membership: now)
        else {
            report.vaults[vault, default: .init()].notWritten = BundleCredentials.notMemberReason(
                device: device,
                vault: vault,
                membership: membership
            )
            return .refused
        }
        if now.members[device.deviceID] == nil {
            // Removed: it still writes (its own removals must reach the others), and says so.
            report.vaults[vault, default: .init()].removed = true
        }
        return .write(membership: log.digest, notices: log.holdsCutters)
    }

    /// Writes a new file of `vault`'s changes after `since` and remembers it. A full file's name
    /// sorts before the other devices' full files of the vault read here, so that a device
    /// whose full file holds the same history adopts it (`FolderBase.adopts`).
    private mutating func export(_ vault: String, since: Int64, membership: [UInt8]?) async throws -> FolderFile {
        let others = known.values.filter { !$0.written && $0.isFull && $0.vault == vault }.map(\.name)
        let name = since == 0 ? FolderFileName.random(before: others.min()) : FolderFileName.random()
        let folder = folder
        try await database.write { try $0.store.noteWrite(folder, name: name, finished: false) }
        let info = try await database.exportBundle(
            vault: vault,
            to: folder + "/" + name,
            credentials: credentials,
            passphraseCost: .moderate
        ) { _ in since }
        guard let changes = info.changes else { preconditionFailure("an export knows its change set") }
        let file = FolderFile(name: name, size: info.byteCount, changes: changes, written: true, membership: membership)
        try await database.write { transaction in
            try transaction.store.rememberFolderFile(folder, file)
            try transaction.store.noteWrite(folder, name: name, finished: true)
            try transaction.store.awaitAcknowledgements(
                vault,
                through: changes.through,
                now: transaction.stamps.wallClock().millis
            )
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
