import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerFolderSync
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

/// Shared full files (Specs/folder-sync.md, "Adopting another device's full file"): a device
/// keeps another's full file in place of its own once a merge proved that it held everything
/// held here, so that the folder holds the history about once.
extension FolderSyncTests {
    /// The size of one full change set of `ledger`'s vault.
    func fullSize(_ ledger: TestLedger) async throws -> Int {
        let path = folder.path("full.txb")
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await ledger.ledger.exportBundle(vault: "vault-1", to: path, secret: secret, scope: .full).byteCount
    }

    @Test func aNewDeviceAdoptsTheFullFileItReadsAndWritesNothing() async throws {
        let (a, fresh) = (try await TestLedger(), try await TestLedger())
        try await record(a, 1...10)
        try await sync(a)
        let joined = try await sync(fresh)
        #expect(joined.vaults["vault-1"]?.filesRead == 1 && joined.vaults["vault-1"]?.filesWritten == 0)
        #expect(try files().count == 1)
        // The first device finds nothing to read: the newcomer wrote no copy of the vault.
        #expect(try await sync(a).isQuiet)
        // The newcomer's own changes go in a delta after the adopted file, which A reads.
        try await record(fresh, 11...11)
        #expect(try await sync(fresh).vaults["vault-1"]?.filesWritten == 1)
        #expect(try await sync(a).vaults["vault-1"]?.recordsAdded == 1)
        let held = try await ids(fresh)
        #expect(try await ids(a) == held)
        // A's full file and the two deltas (A writes what it merged, as every device does).
        #expect(try files().count == 3)
    }

    /// Two devices whose full files hold the same history keep one of them.
    @Test func twoFullFilesOfTheSameHistoryBecomeOne() async throws {
        let (a, b) = (try await TestLedger(), try await TestLedger())
        try await record(a, 1...5)
        try await sync(a)
        try await sync(b)
        // The folder is emptied; each writes a full file without seeing the other's.
        for name in try files().keys { try FileManager.default.removeItem(atPath: folder.path(name)) }
        let (aAlone, bAlone) = (try await run(a, listing: [:]), try await run(b, listing: [:]))
        #expect(aAlone.vaults["vault-1"]?.filesWritten == 1 && bAlone.vaults["vault-1"]?.filesWritten == 1)
        #expect(try files().count == 2)
        for _ in 0..<2 {
            try await sync(a)
            try await sync(b)
        }
        #expect(try files().count == 1)
        let held = try await ids(a)
        #expect(held.count == 5)
        #expect(try await ids(b) == held)
        // The device that adopted did so in a merge that changed nothing, which used no change
        // number: its next change, numbered as that merge was, still goes in its next file.
        try await record(a, 6...6)
        try await record(b, 7...7)
        for device in [a, b, a] { try await sync(device) }
        let both = try await ids(a)
        #expect(both.count == 7)
        #expect(try await ids(b) == both)
    }

    /// Between full files that hold the same history, a device adopts another's only if its
    /// name sorts before its own and before the one it adopted: two devices that read each
    /// other's at once never both remove their own, and a device that reads several keeps the
    /// one their writers adopt. A file that holds more is adopted whatever its name.
    @Test func ofFilesOfTheSameHistoryTheFirstNameIsKept() throws {
        let header = ChangeSetHeader(
            vaultId: "vault-1",
            origin: ReplicaID(rawValue: 7),
            since: 0,
            through: 3,
            knowledge: [:],
            clearedThrough: nil
        )
        let first = "txl-000000000000000000000001.txb"
        let second = "txl-000000000000000000000002.txb"
        let third = "txl-000000000000000000000003.txb"
        func own(_ name: String) -> FolderFile { FolderFile(name: name, size: 1, changes: header, written: true) }
        func adopted(_ name: String) -> FolderFile {
            FolderFile(name: name, size: 1, changes: header, written: false, coversThrough: 3)
        }
        #expect(FolderBase.adopts(first, holdsMore: false, membership: nil, over: own(second), adopted: nil))
        #expect(!FolderBase.adopts(second, holdsMore: false, membership: nil, over: own(first), adopted: nil))
        #expect(FolderBase.adopts(second, holdsMore: true, membership: nil, over: own(first), adopted: nil))
        #expect(FolderBase.adopts(second, holdsMore: false, membership: nil, over: nil, adopted: nil))
        #expect(FolderBase.adopts(first, holdsMore: false, membership: nil, over: own(third), adopted: adopted(second)))
        #expect(
            !FolderBase.adopts(second, holdsMore: false, membership: nil, over: own(third), adopted: adopted(first))
        )
        #expect(!FolderBase.adopts(third, holdsMore: false, membership: nil, over: nil, adopted: adopted(second)))
        #expect(FolderBase.adopts(third, holdsMore: true, membership: nil, over: nil, adopted: adopted(first)))
        // A file under another membership log is no base, and does not count.
        func own(_ name: String, log: [UInt8]) -> FolderFile {
            FolderFile(name: name, size: 1, changes: header, written: true, membership: log)
        }
        #expect(FolderBase.adopts(second, holdsMore: false, membership: [2], over: own(first, log: [1]), adopted: nil))
        #expect(!FolderBase.adopts(second, holdsMore: false, membership: [2], over: own(first, log: [2]), adopted: nil))
    }

    /// A full file's name sorts before the other devices' full files its writer read: so a
    /// device whose own full file holds the same history adopts the newer one, whose writer
    /// will not read the older one again.
    @Test func aNameBeforeAnotherSortsBeforeItAndIsAName() {
        for bound in [
            FolderFileName.random(), "txl-000000010000000000000000.txb", "txl-000000000000000000000009.txb",
            "txl-ffffffffffffffffffffffff.txb",
        ] {
            for _ in 0..<100 {
                let name = FolderFileName.random(before: bound)
                #expect(name < bound && FolderFileName.kind(of: name) == .bundle, "\(name) for \(bound)")
            }
        }
        // No room below, or no name: a random one.
        for bound in ["txl-000000000000000000000001.txb", "not a name"] {
            #expect(FolderFileName.kind(of: FolderFileName.random(before: bound)) == .bundle)
        }
    }

    /// The case the names' order settles: B reads A's full file while B holds a record it
    /// lacks, and answers with a full file of everything; A, which had merged that record from
    /// B's delta, finds that file holds the same as its own, and adopts it (B will not read
    /// A's again). With random names, A kept its own half of the time, and both stayed.
    @Test func aFullFileWrittenAfterReadingAnotherIsAdoptedOnATie() async throws {
        let (a, b) = (try await TestLedger(), try await TestLedger())
        func listed(_ names: Set<String>) throws -> [String: Int] { try files().filter { names.contains($0.key) } }
        try await record(a, 1...40)
        _ = try await run(a, listing: [:])
        let first = Set(try files().keys)
        _ = try await run(b, listing: try listed(first))
        try await record(b, 41...41)
        _ = try await run(b, listing: try listed(first))
        let delta = Set(try files().keys).subtracting(first)
        // A does not see B's delta yet, and writes a new full file (its deltas grew past half).
        try await record(a, 43...80)
        _ = try await run(a, listing: try listed(first))
        let aFull = Set(try files().keys).subtracting(first).subtracting(delta)
        #expect(aFull.count == 1)
        // A reads B's delta; then B reads A's full file, which lacks 41: a rival.
        _ = try await run(a, listing: try listed(aFull.union(delta)))
        try await sync(b)
        // A finds B's full file holds exactly what it holds, and adopts it.
        try await sync(a)
        let left = try files()
        #expect(left.count == 1, "\(left)")
        let held = try await ids(a)
        #expect(held.count == 79)
        #expect(try await ids(b) == held)
    }

    /// The full files of `vault` in the folder, by reading their headers.
    func fullFiles() async throws -> [String] {
        var full: [String] = []
        for name in try files().keys where FolderFileName.kind(of: name) == .bundle {
            if try await BundleFixture.decode(folder.path(name), secret: secret).header.isFull { full.append(name) }
        }
        return full
    }

    /// A device that changed records since its last file still adopts a full file that holds
    /// everything else it holds, and writes its changes in a delta: two devices that keep
    /// recording do not answer each other's full files with full files. (A full file is the
    /// only one of the folder when B has synced after A compacted.)
    @Test func aDeviceWithChangesOfItsOwnAdoptsAFullFileHoldingTheRest() async throws {
        let (a, b) = (try await TestLedger(), try await TestLedger())
        try await record(a, 1...20)
        try await sync(a)
        try await sync(b)
        var compacted = false
        for round in 0..<30 where !compacted {
            try await record(a, (100 + round)...(100 + round))
            let aSync = try await sync(a).vaults["vault-1"]
            compacted = aSync?.filesRemoved ?? 0 > 0
            // B records before it reads A's files, and so holds a record A's full file lacks.
            try await record(b, (200 + round)...(200 + round))
            let bSync = try await sync(b).vaults["vault-1"]
            // A reads B's deltas, which start after the file B adopted, and says so: B waits
            // on nobody in vain (Specs/crdt.md, "Peers that do not read").
            #expect(aSync?.notReadingOurFiles.isEmpty != false && bSync?.notReadingOurFiles.isEmpty != false)
            if compacted { #expect(try await fullFiles().count == 1, "round \(round)") }
        }
        #expect(compacted)
        try await sync(a)
        let held = try await ids(a)
        #expect(try await ids(b) == held)
    }

    /// A full file that does not hold what a device holds is a rival: the device's next full
    /// file holds both, and the rival's writer adopts it at its next sync.
    @Test func aRivalFullFileIsAnsweredWithAFullFileItsWriterAdopts() async throws {
        let (a, b) = (try await TestLedger(), try await TestLedger())
        try await record(a, 1...40)
        _ = try await run(a, listing: [:])
        try await record(b, 41...41)
        _ = try await run(b, listing: [:])
        #expect(try files().count == 2)
        // A reads B's small full file, which lacks A's 40: A writes a full file, not a delta.
        let answer = try await sync(a)
        #expect(answer.vaults["vault-1"]?.filesWritten == 1 && answer.vaults["vault-1"]?.filesRemoved == 1)
        // B reads it, adopts it, and removes its own.
        let adopting = try await sync(b)
        #expect(adopting.vaults["vault-1"]?.filesWritten == 0 && adopting.vaults["vault-1"]?.filesRemoved == 1)
        #expect(try files().count == 1)
        let held = try await ids(b)
        #expect(held.count == 41)
        #expect(try await ids(a) == held)
    }

    /// Five devices with 10 records of their own each, synced until they agree: the folder
    /// holds one full copy of the vault, not one per device (issue #36's bound: 1.5).
    @Test func fiveDevicesLeaveAboutOneFullCopy() async throws {
        var devices: [TestLedger] = []
        for device in 0..<5 {
            let ledger = try await TestLedger()
            try await record(ledger, (device * 10 + 1)...(device * 10 + 10))
            devices.append(ledger)
        }
        for _ in 0..<3 {
            for device in devices { try await sync(device) }
        }
        let total = try files().values.reduce(0, +)
        let one = try await fullSize(devices[0])
        #expect(Double(total) <= 1.5 * Double(one), "\(total) bytes, one full copy \(one)")
        for device in devices { #expect(try await ids(device).count == 50) }
    }

    /// A device whose adopted file is gone from the folder (its writer compacted it away, or
    /// someone removed it) writes a full file of its own at its next sync.
    @Test func aDeviceWhoseAdoptedFileIsGoneWritesItsOwn() async throws {
        let (a, fresh) = (try await TestLedger(), try await TestLedger())
        try await record(a, 1...10)
        try await sync(a)
        try await sync(fresh)
        for name in try files().keys { try FileManager.default.removeItem(atPath: folder.path(name)) }
        #expect(try await sync(fresh).vaults["vault-1"]?.filesWritten == 1)
        let other = try await TestLedger()
        try await sync(other)
        #expect(try await ids(other).count == 10)
    }

    /// A full file that leaves out a record held here is not adopted, whoever wrote it: the
    /// device's own files stay, and the record reaches a new device.
    @Test func aFullFileWithoutARecordHeldHereIsNotAdopted() async throws {
        let (a, b) = (try await TestLedger(), try await TestLedger())
        try await record(a, 1...10)
        try await sync(a)
        try await sync(b)
        try await record(a, 11...11)
        try await sync(a)
        // B writes a full file of what it holds (a damaged delta read later would do the same):
        // it lacks record 11, which A holds.
        _ = try await run(b, listing: [:])
        try await sync(a)
        let fresh = try await TestLedger()
        try await sync(fresh)
        #expect(try await ids(fresh).count == 11)
    }

    /// An older version's ledger read every other device's full file and kept its own: the
    /// upgrade notes those files as rivals, so that its first sync writes one full file that
    /// the others can adopt.
    @Test func theUpgradeNotesTheOtherDevicesFullFilesAsRivals() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("v12.sqlite")
        let pool = try DatabasePool(path: path)
        try LedgerSchema.migrator.migrate(pool, upTo: "v12: observed clears, disputes, acknowledgements")
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO folder_file (folder, name, size, vault_id, origin, since_seq, through_seq, written)
                    VALUES ('/f', 'txl-a', 10, 'v', 7, 0, 3, 0), ('/f', 'txl-b', 5, 'v', 7, 3, 4, 0),
                           ('/f', 'txl-c', 10, 'v', 8, 0, 3, 1)
                    """
            )
        }
        try pool.close()
        let ledger = try await Ledger.open(path: path)
        let rows = try await ledger.read { try $0.folderFiles("/f") }
        #expect(rows.filter(\.rival).map(\.name) == ["txl-a"])
        #expect(rows.allSatisfy { $0.coversThrough == nil })
    }
}
