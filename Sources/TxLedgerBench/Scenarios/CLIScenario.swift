/// Whole `txledger` processes on the merge scenario's replicas (`sizes.batch` records each,
/// half of B's shared with A with conflicting statuses): `export --full` of B; `import` of that
/// bundle into a copy of A; `merge` of B's ledger file into another copy of A; `record --json`
/// of B's `list --json` into a fresh ledger. Each time is a process from start to exit,
/// opening the ledger and, for import, deriving nothing (a sync key).
struct CLIScenario {
    let sizes: BenchSizes
    let files: LedgerFiles
    let report: BenchReport

    func run(replicaA: String, replicaB: String, vault: String) async throws {
        let cli = try CLIProcess()
        let key = files.path("cli.key")
        files.remove("cli.key")
        _ = try await cli.seconds(["keygen", "--out", key])
        let bundle = files.path("cli-b.txb")
        let export = try await cli.seconds(
            ["--db", replicaB, "export", "--vault", vault, "--out", bundle, "--key-file", key, "--full"]
        )
        let imported = try files.copy(replicaA, to: "cli-import.sqlite")
        let importing = try await cli.seconds(["--db", imported, "import", bundle, "--key-file", key])
        let merged = try files.copy(replicaA, to: "cli-merge.sqlite")
        let merging = try await cli.seconds(["--db", merged, "merge", replicaB])
        let listing = files.path("cli-list.json")
        _ = try await cli.seconds(
            ["--db", replicaB, "list", "--vault", vault, "--limit", "\(sizes.batch)", "--json"],
            output: listing
        )
        let recorded = try files.freshLedger("cli-record.sqlite")
        let recording = try await cli.seconds(["--db", recorded, "record", "--json", listing])
        report.add("cli.export_full.100k", .cost(export, unit: "s"))
        report.add("cli.import.100k", .cost(importing, unit: "s"))
        report.add("cli.merge.100k", .cost(merging, unit: "s"))
        report.add("cli.record_json.100k", .cost(recording, unit: "s"))
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
