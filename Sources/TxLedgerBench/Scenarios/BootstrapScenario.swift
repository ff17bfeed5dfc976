import Foundation

/// scale.*: issue #36's figures of a large vault through one folder, as whole `txledger sync`
/// processes: the first device's first sync into an empty folder (the baseline); a new
/// device's first sync, which gets the whole vault (its time, peak resident memory and
/// processor seconds: a sync of 5 s on this two-core machine has at most 10 of them); the
/// first device's next sync, which finds the newcomer's files, against its sync after that,
/// with nothing new; and the folder's bytes then, against the first device's file alone.
struct BootstrapScenario {
    let files: LedgerFiles
    let report: BenchReport

    func run(ledger first: String, keyFile: String) async throws {
        let cli = try CLIProcess()
        let folder = files.path("scale-folder")
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let scratch = files.path("scale-peak.txt")
        func sync(_ ledger: String) async throws -> CLIProcess.Usage {
            try await cli.usage(["--db", ledger, "sync", folder, "--key-file", keyFile], scratch: scratch)
        }

        let writing = try await sync(first)
        let oneCopy = try folderBytes(folder)
        let newcomer = try files.freshLedger("scale-newcomer.sqlite")
        let joining = try await sync(newcomer)
        let rereading = try await sync(first)
        let nothingNew = try await sync(first)

        let firstSync = "the first device's first sync, writing the vault"
        report.add("scale.bootstrap.1m", .cost(joining.seconds, unit: "s", baseline: writing.seconds, name: firstSync))
        if let peak = joining.peakMB {
            report.add("scale.bootstrap.1m_mb", .cost(peak, unit: "MB", baseline: writing.peakMB, name: firstSync))
        }
        if let cpu = joining.cpuSeconds {
            report.add("scale.bootstrap.1m_cpu", .cost(cpu, unit: "s", baseline: writing.cpuSeconds, name: firstSync))
        }
        report.add(
            "scale.reread.1m",
            .cost(
                rereading.seconds,
                unit: "s",
                baseline: nothingNew.seconds,
                name: "the same device's next sync, nothing new"
            )
        )
        report.add(
            "scale.folder_bytes.1m",
            .cost(
                Double(try folderBytes(folder)),
                unit: "B",
                baseline: Double(oneCopy),
                name: "the first device's file alone"
            )
        )
        try? FileManager.default.removeItem(atPath: folder)
        files.discard("scale-newcomer.sqlite", "scale-peak.txt")
    }

    private func folderBytes(_ folder: String) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: folder).reduce(0) { total, name in
            total + ((try FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int) ?? 0)
        }
    }
}
