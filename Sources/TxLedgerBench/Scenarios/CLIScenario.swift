import Foundation

/// Whole `txledger` processes on the merge scenario's replicas (`sizes.batch` records each,
/// half of B's shared with A with conflicting statuses): `export --full` of B; `import` of that
/// bundle into a copy of A; `merge` of B's ledger file into another copy of A; `record --json`
/// of B's `list --json` into a fresh ledger. Each time is a process from start to exit,
/// opening the ledger and, for import, deriving nothing (a sync key). Baselines of the same
/// run: B's rows read raw in id order plus secretstream over the bundle's bytes for the
/// export; the raw upsert of B's rows into A (merge.100k's) for import and merge; the raw
/// INSERT of 100k rows in one transaction (record.batch's) for `record --json`. The import is
/// also set against Yrs merging the same shape in memory (`YrsBaseline`), issue #36's bar: at
/// most 4 times. The import runs `MergeScenario.runs` times, each into a fresh copy of A,
/// alternating with Yrs, and both are medians, as merge.100k's are.
struct CLIScenario {
    /// The raw baselines that other scenarios measured in this run, in seconds.
    struct Baselines {
        let rawInsert: Double
        let rawUpsert: Double
    }

    let sizes: BenchSizes
    let files: LedgerFiles
    let report: BenchReport
    let baselines: Baselines
    /// `scripts/yrs-merge.py`.
    let yrsScript: String

    func run(replicaA: String, replicaB: String, vault: String) async throws {
        let cli = try CLIProcess()
        let key = files.path("cli.key")
        files.remove("cli.key")
        _ = try await cli.seconds(["keygen", "--out", key])
        let bundle = files.path("cli-b.txb")
        let export = try await cli.seconds(
            ["--db", replicaB, "export", "--vault", vault, "--out", bundle, "--key-file", key, "--full"]
        )
        // The import and Yrs alternate `MergeScenario.runs` times, as merge.100k and its baseline
        // do (the machine's speed moves between minutes), and each is the median.
        var imports: [Double] = []
        // `nil` once Yrs cannot run (the reason printed once).
        var yrsRuns: [Double]? = []
        for _ in 0..<MergeScenario.runs {
            let imported = try files.copy(replicaA, to: "cli-import.sqlite")
            imports.append(try await cli.seconds(["--db", imported, "import", bundle, "--key-file", key]))
            if let runs = yrsRuns {
                yrsRuns = try await YrsBaseline.seconds(records: sizes.batch, script: yrsScript).map { runs + [$0] }
            }
        }
        let importing = Stopwatch.median(of: imports)
        let merged = try files.copy(replicaA, to: "cli-merge.sqlite")
        let merging = try await cli.seconds(["--db", merged, "merge", replicaB])
        let listing = files.path("cli-list.json")
        _ = try await cli.seconds(
            ["--db", replicaB, "list", "--vault", vault, "--limit", "\(sizes.batch)", "--json"],
            output: listing
        )
        let recorded = try files.freshLedger("cli-record.sqlite")
        let recording = try await cli.seconds(["--db", recorded, "record", "--json", listing])
        let bundleBytes = try FileManager.default.attributesOfItem(atPath: bundle)[.size] as? Int ?? 0
        let rawExport =
            try await RawBaseline.readSeconds(of: replicaB)
            + (await SecretStreamBaseline.seconds(encrypting: bundleBytes))
        let upsert = "raw upsert, 1 transaction"
        report.add(
            "cli.export_full.100k",
            .cost(export, unit: "s", baseline: rawExport, name: "raw SELECT by id + secretstream")
        )
        report.add("cli.import.100k", .cost(importing, unit: "s", baseline: baselines.rawUpsert, name: upsert))
        if let yrsRuns {
            report.add(
                "cli.import.100k.vs_yrs",
                .cost(
                    importing,
                    unit: "s",
                    baseline: Stopwatch.median(of: yrsRuns),
                    name: "Yrs merging the same shape in memory, median of \(MergeScenario.runs)"
                )
            )
            print("    (import \(Stopwatch.listed(imports)), Yrs \(Stopwatch.listed(yrsRuns)))")
        }
        report.add("cli.merge.100k", .cost(merging, unit: "s", baseline: baselines.rawUpsert, name: upsert))
        report.add(
            "cli.record_json.100k",
            .cost(recording, unit: "s", baseline: baselines.rawInsert, name: "raw INSERT, 1 transaction")
        )
        files.discard(
            "cli.key",
            "cli-b.txb",
            "cli-import.sqlite",
            "cli-merge.sqlite",
            "cli-list.json",
            "cli-record.sqlite"
        )
    }
}
