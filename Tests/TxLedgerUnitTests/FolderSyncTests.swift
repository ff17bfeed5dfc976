import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerFolderSync
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

/// Sync through a shared folder (Specs/folder-sync.md): devices that only ever run `sync` on
/// one folder converge, whatever order they run in, and the folder's hazards are skipped
/// without stopping the rest.
struct FolderSyncTests {
    let secret = BundleSecret.syncKey(.generate())
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    func record(_ ledger: TestLedger, _ hashes: ClosedRange<Int>, vault: String = "vault-1") async throws {
        ledger.clock.advance(by: 1)
        try await ledger.ledger.record(try hashes.map { try Fixture.minimalSend(vault: vault, hash: $0) })
    }

    @discardableResult
    func sync(_ ledger: TestLedger, vaults: [String]? = nil) async throws -> FolderSyncReport {
        try await ledger.ledger.sync(folder: folder.url.path, secret: secret, vaults: vaults)
    }

    func ids(_ ledger: TestLedger) async throws -> Set<TransactionID> {
        Set(try await ledger.ledger.all().map(\.id))
    }

    func files() throws -> [String: Int] {
        Dictionary(
            uniqueKeysWithValues: try FileManager.default.contentsOfDirectory(atPath: folder.url.path).map { name in
                (name, (try FileManager.default.attributesOfItem(atPath: folder.path(name))[.size] as? Int) ?? 0)
            }
        )
    }

    @Test func twoDevicesConvergeAndASecondSyncDoesNothing() async throws {
        let a = try await TestLedger()
        let b = try await TestLedger()
        try await record(a, 1...5)
        try await record(b, 6...8)
        let first = try await sync(a)
        #expect(first.vaults["vault-1"]?.filesWritten == 1)
        let second = try await sync(b)
        #expect(
            second.vaults["vault-1"]
                == .init(filesRead: 1, recordsAdded: 5, recordsChanged: 0, filesWritten: 1, filesRemoved: 0)
        )
        // B's full file holds everything A holds, and more: A keeps it in place of its own
        // (folder-sync.md, "Adopting another device's full file"), and writes nothing.
        let third = try await sync(a)
        #expect(
            third.vaults["vault-1"]
                == .init(filesRead: 1, recordsAdded: 3, recordsChanged: 0, filesWritten: 0, filesRemoved: 1)
        )
        let (aIDs, bIDs) = (try await ids(a), try await ids(b))
        #expect(aIDs == bIDs && aIDs.count == 8)
        #expect(try files().count == 1)

        // Nothing new anywhere: no file is read again, none is written.
        for ledger in [a, b] {
            let quiet = try await sync(ledger)
            #expect(quiet.isQuiet && quiet.skipped.isEmpty, "\(quiet)")
        }
    }

    @Test func aNewDeviceGetsEverythingWithNoFlag() async throws {
        let a = try await TestLedger()
        let b = try await TestLedger()
        try await record(a, 1...10)
        try await sync(a)
        try await record(a, 11...12)
        try await sync(a)
        try await record(b, 13...13)
        try await sync(b)
        let fresh = try await TestLedger()
        let report = try await sync(fresh)
        #expect(report.vaults["vault-1"]?.recordsAdded == 13)
        #expect(try await ids(fresh).count == 13)
    }

    /// However many times a device syncs a small change, its files stay within one full change
    /// set and a half: once its later files weigh more than half of its full one, it writes a
    /// full one and removes the rest.
    @Test func theFolderStaysBounded() async throws {
        let a = try await TestLedger()
        let b = try await TestLedger()
        try await record(a, 1...40)
        for round in 0..<30 {
            try await record(a, (100 + round)...(100 + round))
            try await sync(a)
            try await a.ledger.setNote("round \(round)", for: try Fixture.minimalSend(hash: 1).id)
            try await sync(b)
        }
        let full = folder.path("full.txb")
        let aFull = try await a.ledger.exportBundle(vault: "vault-1", to: full, secret: secret, scope: .full).byteCount
        try FileManager.default.removeItem(atPath: full)
        let total = try files().values.reduce(0, +)
        #expect(
            total <= Int(Double(2 * aFull) * 1.5),
            "\(total) bytes for two writers whose full change set is \(aFull)"
        )
        let (aIDs, bIDs) = (try await ids(a), try await ids(b))
        #expect(bIDs == aIDs)
    }

    /// A device restored from an older backup reads the files it wrote after the backup, takes
    /// a new replica id, and loses nothing; the files of its former id are removed.
    @Test func aRestoredDeviceLosesNothingAndCleansUpItsFormerFiles() async throws {
        let a = try await TestLedger()
        let b = try await TestLedger()
        try await record(a, 1...3)
        try await sync(a)
        let backup = try await TestLedger(copyOf: a.ledger, clock: a.clock)
        try await record(a, 4...9)
        try await sync(a)
        try await sync(b)
        let restored = try await TestLedger(copyOf: backup.ledger, clock: a.clock)
        try await record(restored, 10...12)
        let report = try await sync(restored)
        #expect(report.newReplicaID != nil)
        #expect(try await ids(restored).count == 12)
        try await sync(b)
        #expect(try await ids(b).count == 12)
        let origins = try await Set(restored.ledger.read { try $0.folderFiles(folder.url.path) }.map(\.origin))
        #expect(!origins.contains(a.ledger.replicaID), "the former id's files are gone")
    }

    /// A lost device holds nothing back: the others' files carry what changed since their own
    /// last file, whoever has read them.
    @Test func aLostDeviceHoldsNothingBack() async throws {
        let a = try await TestLedger()
        let b = try await TestLedger()
        let lost = try await TestLedger()
        try await record(a, 1...50)
        for ledger in [a, b, lost, a, b] { try await sync(ledger) }
        // `lost` never syncs again; A's next file holds only its new records.
        try await record(a, 51...52)
        let report = try await sync(a)
        #expect(report.vaults["vault-1"]?.filesWritten == 1)
        let newest = try #require(
            try await a.ledger.read { try $0.folderFiles(folder.url.path) }.filter(\.written).max {
                $0.through < $1.through
            }
        )
        #expect(!newest.isFull)
        #expect(try await BundleFixture.decode(folder.path(newest.name), secret: secret).recordCount == 2)
    }

    @Test func everyVaultOfTheLedgerAndOfTheFolderUnlessOnlySomeAreNamed() async throws {
        let a = try await TestLedger()
        let b = try await TestLedger()
        try await record(a, 1...2, vault: "main")
        try await record(a, 3...4, vault: "savings")
        try await sync(a)
        let some = try await sync(b, vaults: ["savings"])
        #expect(Set(some.vaults.keys) == ["savings"])
        #expect(try await ids(b).count == 2)
        let all = try await sync(b)
        #expect(all.vaults["main"]?.recordsAdded == 2)
        #expect(try await ids(b).count == 4)
    }

    /// Each hazard of a cloud folder is skipped with its reason and never stops the rest: the
    /// valid file among them is read.
    @Test func hazardsAreSkippedAndTheRestIsRead() async throws {
        let a = try await TestLedger()
        let b = try await TestLedger()
        try await record(a, 1...4)
        try await sync(a)
        let written = try #require(try files().keys.first)
        let bytes = try Data(contentsOf: folder.url.appendingPathComponent(written))
        let stem = String(written.dropLast(FolderFileName.suffix.count))
        func put(_ name: String, _ data: Data) throws { try data.write(to: folder.url.appendingPathComponent(name)) }
        try put("\(stem) (1).txb", bytes)
        try put("\(stem) (Bob's conflicted copy 2026-11-02).txb", bytes)
        try put("\(stem).sync-conflict-20261102-101010-ABCDEFG.txb", bytes)
        try put(".\(FolderFileName.random()).icloud", Data("placeholder".utf8))
        let cut = FolderFileName.random()
        let empty = FolderFileName.random()
        let junk = FolderFileName.random()
        let other = FolderFileName.random()
        let newer = FolderFileName.random()
        try put(cut, bytes.prefix(bytes.count - 10))
        try put(empty, Data())
        try put(junk, Data("PK\u{3}\u{4} not a bundle at all".utf8))
        var newerBytes = bytes
        newerBytes[8] = BundleHeader.currentVersion + 1
        try put(newer, newerBytes)
        let another = try await TestLedger()
        try await record(another, 90...91)
        try await another.ledger.exportBundle(
            vault: "vault-1",
            to: folder.path(other),
            secret: .syncKey(.generate()),
            scope: .full
        )
        try put("notes.txt", Data("someone else's file".utf8))

        let report = try await sync(b)
        let (aIDs, bIDs) = (try await ids(a), try await ids(b))
        #expect(bIDs == aIDs, "the valid file was read")
        let reasons = Dictionary(uniqueKeysWithValues: report.skipped.map { ($0.name, $0) })
        #expect(report.skipped.count == 9, "\(report.skipped)")
        #expect(reasons["\(stem) (1).txb"]?.reason.contains("copy") == true)
        #expect(reasons["\(stem) (1).txb"]?.retried == false)
        #expect(reasons[cut]?.retried == true && reasons[cut]?.reason.contains("cut short") == true)
        #expect(reasons[empty]?.retried == true && reasons[empty]?.reason.contains("empty") == true)
        #expect(reasons[junk]?.reason == "not a TxLedger bundle")
        #expect(reasons[newer]?.reason.contains("newer TxLedger") == true)
        #expect(reasons[other]?.reason.contains("another key or passphrase") == true)
        #expect(reasons["notes.txt"] == nil)

        // The cut upload completes: the next sync reads it (it is the same change set: nothing new).
        try put(cut, bytes)
        let next = try await sync(b)
        #expect(next.vaults["vault-1"]?.filesRead == 1)
        #expect(next.skipped.first { $0.name == cut } == nil)
    }

    /// One sync of `device` given `listing` as the folder's listing.
    func run(_ device: TestLedger, listing: [String: Int]) async throws -> FolderSyncReport {
        var sync = FolderSync(
            database: device.ledger.database,
            folder: folder.url.path,
            credentials: BundleCredentials(device: nil, secret: secret),
            vaults: nil,
            deviceName: "device"
        )
        return try await sync.run(listing: listing)
    }

    @Test func aFileThatVanishesAfterTheListingIsSkippedAndTriedAgain() async throws {
        let a = try await TestLedger()
        let b = try await TestLedger()
        try await record(a, 1...2)
        try await sync(a)
        let gone = FolderFileName.random()
        var listing = try files()
        listing[gone] = 500
        let report = try await run(b, listing: listing)
        #expect(report.skipped.map(\.name) == [gone])
        #expect(report.skipped.first?.retried == true)
        #expect(try await ids(b).count == 2, "the other file was read")
    }

    /// A file replaced by a FIFO between the listing and its read: opened without blocking,
    /// skipped as not a regular file, and the rest is read (issue #32, case 3).
    @Test func aFifoPutInAFilesPlaceAfterTheListingIsSkipped() async throws {
        let a = try await TestLedger()
        let b = try await TestLedger()
        try await record(a, 1...2)
        try await sync(a)
        let fifo = FolderFileName.random()
        var listing = try files()
        listing[fifo] = 500
        #expect(mkfifo(folder.path(fifo), 0o644) == 0)
        let report = try await run(b, listing: listing)
        #expect(report.skipped.map(\.name) == [fifo])
        #expect(report.skipped.first?.reason.contains("not a regular file") == true, "\(report.skipped)")
        #expect(try await ids(b).count == 2, "the other file was read")
    }

    @Test func twoDevicesSyncingAtOnceAndTwoProcessesOfOneConverge() async throws {
        let a = try await TestLedger()
        let b = try await TestLedger()
        let aAgain = try await a.reopened()
        try await record(a, 1...20)
        try await record(b, 21...40)
        for _ in 0..<3 {
            async let first = a.ledger.sync(folder: folder.url.path, secret: secret)
            async let second = b.ledger.sync(folder: folder.url.path, secret: secret)
            async let third = aAgain.sync(folder: folder.url.path, secret: secret)
            _ = try await (first, second, third)
        }
        try await sync(a)
        try await sync(b)
        let (aIDs, bIDs) = (try await ids(a), try await ids(b))
        #expect(aIDs.count == 40 && bIDs == aIDs)
    }

    /// Files that are gone are forgotten together, however many (statements of 500 names).
    @Test func manyGoneFilesAreForgottenAndTheOthersKept() async throws {
        let test = try await TestLedger()
        let names = (0..<1201).map { "txl-\($0).txb" }
        let header = ChangeSetHeader(
            vaultId: "vault-1",
            origin: ReplicaID(rawValue: 7),
            since: 0,
            through: 1,
            knowledge: [:],
            lineage: nil,
            clearedThrough: nil
        )
        try await test.ledger.write { transaction in
            for name in names {
                try transaction.store.rememberFolderFile(
                    "/f",
                    FolderFile(name: name, size: 1, changes: header, written: false)
                )
            }
            try transaction.store.forgetFolderFiles("/f", names: Array(names.dropLast()))
        }
        let kept = try await test.ledger.read { try $0.folderFiles("/f") }.map(\.name)
        #expect(kept == [names[1200]])
    }
}
