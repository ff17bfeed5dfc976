import Foundation
import TxLedger

/// folder.*: five devices with `sizes.single` records each (10k), syncing through one folder
/// until they agree (Specs/folder-sync.md). Then: a sync with nothing new (it must read no
/// bundle again; baseline: reading one device's full change set, which is what it avoids), a
/// sync after 10 new records on one device and the sync that reads them elsewhere (baseline:
/// exporting and importing those changes by hand), and the folder's size (baseline: one full
/// change set of the vault; issue #36's bound is 1.5: the devices share one full file,
/// Specs/folder-sync.md, "Adopting another device's full file").
struct FolderSyncScenario {
    let sizes: BenchSizes
    let files: LedgerFiles
    let report: BenchReport
    static let devices = 5

    func run() async throws {
        let folder = files.path("folder")
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let secret = BundleSecret.syncKey(.generate())
        var ledgers: [Ledger] = []
        for device in 0..<Self.devices {
            let ledger = try Ledger(path: try files.freshLedger("device-\(device).sqlite"))
            let workload = Workload(vault: "main", count: sizes.single, salt: 100 + UInt64(device))
            for start in stride(from: 0, to: sizes.single, by: BenchSizes.recordsPerBatch) {
                try await ledger.record(
                    try (start..<min(start + BenchSizes.recordsPerBatch, sizes.single)).map(workload.record)
                )
            }
            ledgers.append(ledger)
        }
        // Everyone syncs until a whole round changes nothing.
        try await FolderRounds.settle(ledgers, folder: folder, secret: secret, maxRounds: 6, scenario: "folder")
        let total = Self.devices * sizes.single
        for ledger in ledgers
        where try await ledger.tabCounts(HistoryFilter(vault: "main", includeHidden: true)).overview != total {
            throw BenchFailure(description: "folder: a device does not hold all \(total) records")
        }

        let full = files.path("full.txb")
        let fullBytes = try await ledgers[0].exportBundle(vault: "main", to: full, secret: secret, scope: .full)
            .byteCount
        let reading = try Ledger(path: try files.freshLedger("reader.sqlite"))
        let readFull = try await Stopwatch.seconds { _ = try await reading.importBundle(at: full, secret: secret) }
        let quiet = try await Stopwatch.median(runs: 5) {
            _ = try await ledgers[1].sync(folder: folder, secret: secret)
        }
        report.add(
            "folder.sync.nothing_new",
            .cost(quiet, unit: "s", baseline: readFull, name: "importing one device's full bundle")
        )

        // The reader tells the first device what it holds, so that a delta by hand holds only
        // what changes next (the devices of the folder write nothing they need not: a device
        // that adopted another's full file is not heard from).
        let back = files.path("back.txb")
        let toFirst = ExportScope.forPeer(ledgers[0].replicaID)
        _ = try await reading.exportBundle(vault: "main", to: back, secret: secret, scope: toFirst)
        _ = try await ledgers[0].importBundle(at: back, secret: secret)
        try await ledgers[0].record(try (0..<10).map(Workload(vault: "main", count: 10, salt: 999).record))
        let write = try await Stopwatch.seconds { _ = try await ledgers[0].sync(folder: folder, secret: secret) }
        let read = try await Stopwatch.seconds { _ = try await ledgers[1].sync(folder: folder, secret: secret) }
        let delta = files.path("delta.txb")
        let byHand = try await Stopwatch.seconds {
            _ = try await ledgers[0].exportBundle(
                vault: "main",
                to: delta,
                secret: secret,
                scope: .forPeer(reading.replicaID)
            )
            _ = try await reading.importBundle(at: delta, secret: secret)
        }
        report.add(
            "folder.sync.write_10",
            .cost(write, unit: "s", baseline: byHand, name: "export + import of the delta by hand")
        )
        report.add(
            "folder.sync.read_10",
            .cost(read, unit: "s", baseline: byHand, name: "export + import of the delta by hand")
        )

        let bytes = try FileManager.default.contentsOfDirectory(atPath: folder).reduce(0) { sum, name in
            sum + ((try FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int) ?? 0)
        }
        report.add(
            "folder.bytes",
            .cost(
                Double(bytes),
                unit: "B",
                baseline: Double(fullBytes),
                name: "one full bundle of the vault"
            )
        )
        guard !files.keepsFiles else { return }
        try? FileManager.default.removeItem(atPath: folder)
        for device in 0..<Self.devices { files.remove("device-\(device).sqlite") }
        files.remove("reader.sqlite")
        try? FileManager.default.removeItem(atPath: full)
        try? FileManager.default.removeItem(atPath: delta)
        try? FileManager.default.removeItem(atPath: back)
    }
}
