import Foundation
import PropertyBased
import Testing

@testable import TxLedger
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

/// The law of folder sync (Specs/folder-sync.md): devices that sync only through one folder,
/// in any order, alone or two at once, with the folder's hazards in it and backups restored,
/// devices lost and added, converge to everything any of them recorded (but what a lost or
/// restored device had not synced yet); and the folder stays bounded.
struct FolderConvergenceTests {
    @Test func devicesThatOnlySyncThroughAFolderConverge() async {
        await propertyCheck(count: 40, input: FolderScenario.generator) { scenario in
            await Self.check(scenario)
        }
    }

    /// A scenario the law drew (two syncs at once, a restored device, a lost one): in the last
    /// round a device adopted the first device's full file and removed its own, after the first
    /// device had synced. The bound is the folder's, not what the first device remembers of it.
    @Test func theBoundIsTheFolderAfterTheLastDeviceSynced() async {
        await Self.check(
            FolderScenario(
                devices: 4,
                operations: [
                    .record(device: 0, tx: 8), .sync(device: 3), .record(device: 4, tx: 6), .snapshot(device: 1),
                    .note(device: 3, tx: 3, text: "n0"), .record(device: 2, tx: 4), .syncTogether(0, 1),
                    .sync(device: 0), .snapshot(device: 1), .record(device: 3, tx: 2), .syncTogether(0, 1),
                    .syncTogether(0, 1), .sync(device: 1), .restore(device: 1), .sync(device: 2),
                    .note(device: 2, tx: 9, text: "n2"), .record(device: 2, tx: 3), .note(device: 2, tx: 4, text: "n2"),
                    .record(device: 2, tx: 2), .record(device: 0, tx: 7), .lose(device: 4), .syncTogether(2, 4),
                    .note(device: 1, tx: 4, text: "n1"), .note(device: 2, tx: 9, text: "n1"), .syncTogether(2, 0),
                    .syncTogether(4, 4), .sync(device: 3), .sync(device: 0), .note(device: 1, tx: 4, text: "n2"),
                    .sync(device: 0),
                ]
            )
        )
    }

    /// A scenario the law drew (seed `+cPWJ3uoHEMKndH7jzruEkw+I5mR//nBS7VCYxZ8te4=`), which
    /// took four final rounds while each device adopted the full file it read last: a device
    /// kept a file whose writer then adopted another's and removed its own, and wrote a full file
    /// again. A device now keeps, of the files that hold the same history, the one whose name
    /// sorts first, the one their writers adopt too.
    @Test func devicesThatReadSeveralFullFilesShareOneWithinThreeRounds() async {
        await Self.check(
            FolderScenario(
                devices: 4,
                operations: [
                    .record(device: 0, tx: 8),
                    .hazard(.placeholder),
                    .record(device: 3, tx: 8),
                    .sync(device: 3),
                    .record(device: 2, tx: 11),
                    .note(device: 4, tx: 0, text: "n1"),
                    .record(device: 4, tx: 4),
                    .record(device: 3, tx: 5),
                    .sync(device: 0),
                    .sync(device: 2),
                    .sync(device: 4),
                    .sync(device: 3),
                    .tick(device: 4, seconds: 436),
                    .record(device: 0, tx: 0),
                    .record(device: 1, tx: 9),
                    .note(device: 4, tx: 9, text: "n0"),
                    .note(device: 2, tx: 8, text: "n1"),
                    .record(device: 3, tx: 6),
                    .tick(device: 4, seconds: 55),
                    .lose(device: 3),
                    .sync(device: 1),
                    .sync(device: 4),
                    .sync(device: 4),
                    .record(device: 4, tx: 2),
                    .sync(device: 0),
                    .syncTogether(4, 2),
                    .record(device: 2, tx: 7),
                    .syncTogether(1, 3),
                    .record(device: 2, tx: 10),
                    .sync(device: 3),
                    .hazard(.cutUpload),
                    .sync(device: 4),
                    .record(device: 1, tx: 2),
                    .tick(device: 4, seconds: 322),
                    .record(device: 4, tx: 0),
                    .record(device: 1, tx: 9),
                    .record(device: 1, tx: 1),
                    .restore(device: 3),
                    .note(device: 1, tx: 11, text: "n2"),
                ]
            )
        )
    }

    private static func check(_ scenario: FolderScenario) async {
        do {
            let run = try await FolderScenarioRun(scenario)
            try await run.run(scenario.operations)
            try await run.finalRounds()
            #expect(run.missed.isEmpty, "\(run.missed)")

            let first = run.devices[run.active[0]].ledger
            let reference = try await ReplicaSnapshot(first)
            for other in run.active.dropFirst() {
                #expect(try await ReplicaSnapshot(run.devices[other].ledger) == reference)
            }
            for device in run.active {
                try await TabCountOracle.expectCountsOfListedRecords(run.devices[device].ledger)
            }
            let held = Set(try await first.all().map(\.id))
            for (id, device, _) in run.recorded {
                #expect(held.contains(id), "\(id) recorded on device \(device) was lost")
            }

            // Bounded: each writer's files weigh at most one full change set and a half (a lost
            // device's stay as they were). The files are those in the folder now, as the devices
            // in use remember them (each read or wrote every one in the final rounds).
            let path = run.folder.url.path
            let listed = Set(try FileManager.default.contentsOfDirectory(atPath: path))
            var remembered: [String: FolderFile] = [:]
            for device in run.active {
                for file in try await run.devices[device].ledger.read({ try $0.folderFiles(path) })
                where listed.contains(file.name) {
                    remembered[file.name] = file
                }
            }
            let files = remembered.values.sorted { $0.name < $1.name }
            let full = try TemporaryDirectory()
            let fullSize =
                try await first.vaults().isEmpty
                ? 0
                : first.exportBundle(vault: "main", to: full.path("full.txb"), secret: run.secret, scope: .full)
                    .byteCount
            let writers = Set(files.map(\.origin)).count
            let total = files.map(\.size).reduce(0, +)
            #expect(
                total <= writers * fullSize * 3 / 2,
                "\(total) bytes for \(writers) writers, full change set \(fullSize): \(files.map { "\($0.origin) \($0.since)-\($0.through) \($0.size)\($0.written ? " w" : "")" })"
            )
            // Once the devices in use have synced a few rounds, they share one full file: at
            // most one of theirs is in the folder (none when they adopted a lost device's),
            // with each one's later files at most half of one (folder-sync.md, "Adopting
            // another device's full file").
            var inUse: Set<ReplicaID> = []
            for device in run.active { inUse.insert(run.devices[device].ledger.replicaID) }
            let theirs = files.filter { inUse.contains($0.origin) }
            #expect(theirs.filter(\.isFull).count <= 1, "\(theirs)")
            #expect(
                theirs.map(\.size).reduce(0, +) <= fullSize + run.active.count * fullSize / 2,
                "\(theirs.map(\.size)) bytes for \(run.active.count) devices, full change set \(fullSize)"
            )
        } catch {
            Issue.record(error)
        }
    }
}
