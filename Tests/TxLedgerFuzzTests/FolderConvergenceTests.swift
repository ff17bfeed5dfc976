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
                // device's stay as they were).
                let path = run.folder.url.path
                let files = try await first.read { try $0.folderFiles(path) }
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
}
