import ArgumentParser
import Foundation

/// The benchmark run: every scenario at the issue's sizes times `--scale`, a table on stdout and
/// optionally the JSON object.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the benchmarks (the default).")

    @Option(help: "Multiply every size by this (0.1: a quick check; CI runs 0.01).")
    var scale = 1.0
    @Option(help: "Also write the figures as one JSON object to this file.")
    var json: String?
    @Option(
        help:
            "Work in this directory and leave it there with every scenario's files (default: a temporary one, removed afterwards)."
    )
    var directory: String?
    @Option(
        help:
            "Only these scenario groups, comma-separated: record, merge, bundle, cli, layout, large, folder, devices (merge and bundle also run record, whose ledger they use; cli and layout run merge, whose replicas they use; scale runs large, whose vault it uses; layout and scale are not in the default run)."
    )
    var only: String = "record,merge,bundle,cli,large,folder,devices"

    @Option(help: "The script that runs Yrs beside the cli group (needs python3 and pycrdt).")
    var yrsScript = "scripts/yrs-merge.py"

    static let allGroups: Set = ["record", "merge", "bundle", "cli", "large", "folder", "devices"]
    /// Groups run only when asked for by name (minutes of their own).
    static let extraGroups: Set = ["layout", "scale"]

    /// The groups asked for, with record when merge or bundle needs its ledger, merge when cli
    /// or layout needs its replicas, and large when scale needs its vault.
    private var groups: Set<String> {
        var asked = Set(only.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        if !asked.isDisjoint(with: ["cli", "layout"]) { asked.insert("merge") }
        if asked.contains("scale") { asked.insert("large") }
        return asked.isDisjoint(with: ["merge", "bundle"]) ? asked : asked.union(["record"])
    }

    func validate() throws {
        guard scale > 0, scale <= 10 else { throw ValidationError("--scale must be above 0 and at most 10") }
        let unknown = groups.subtracting(Self.allGroups.union(Self.extraGroups))
        guard unknown.isEmpty else {
            throw ValidationError(
                "--only: unknown group \(unknown.sorted().joined(separator: ", ")); the groups are \(Self.allGroups.union(Self.extraGroups).sorted().joined(separator: ", "))"
            )
        }
    }

    func run() async throws {
        let groups = groups
        let directory =
            directory ?? NSTemporaryDirectory() + "txledger-bench-\(ProcessInfo.processInfo.processIdentifier)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { if self.directory == nil { try? FileManager.default.removeItem(atPath: directory) } }

        let sizes = BenchSizes(scale: scale)
        let files = LedgerFiles(directory: directory, keepsFiles: self.directory != nil)
        let report = BenchReport()
        print(
            "txledger-bench: scale \(scale) (\(sizes.batch) / \(sizes.single) / \(sizes.large) records), in \(directory)"
        )
        print(BenchReport.header)
        let workload = Workload(vault: "main", count: sizes.batch)
        if groups.contains("record") {
            let (replicaA, rawInsert) = try await RecordScenario(sizes: sizes, files: files, report: report)
                .run(workload: workload)
            if groups.contains("merge") {
                let (replicaB, rawUpsert) = try await MergeScenario(sizes: sizes, files: files, report: report).run(
                    replicaA: replicaA,
                    workload: workload
                )
                if groups.contains("cli") {
                    try await CLIScenario(
                        sizes: sizes,
                        files: files,
                        report: report,
                        baselines: CLIScenario.Baselines(rawInsert: rawInsert, rawUpsert: rawUpsert),
                        yrsScript: yrsScript
                    ).run(replicaA: replicaA, replicaB: replicaB, vault: workload.vault)
                }
                if groups.contains("layout") {
                    try await IndexCostScenario(files: files, report: report)
                        .run(replicaA: replicaA, replicaB: replicaB)
                }
                files.discard("b.sqlite")
            }
            if groups.contains("bundle") {
                try await BundleScenario(sizes: sizes, files: files, report: report).run(
                    replicaA: replicaA,
                    vault: workload.vault
                )
            }
        }
        if groups.contains("large") {
            try await LargeVaultScenario(
                sizes: sizes,
                files: files,
                report: report,
                throughAFolder: groups.contains("scale")
            ).run()
        }
        if groups.contains("folder") {
            try await FolderSyncScenario(sizes: sizes, files: files, report: report).run()
        }
        if groups.contains("devices") {
            try await DeviceKeysScenario(sizes: sizes, files: files, report: report).run()
            try await MembershipScenario(report: report).run()
        }
        if groups.isSuperset(of: Self.allGroups), !report.missingNames.isEmpty {
            throw ValidationError("the run did not produce \(report.missingNames.joined(separator: ", "))")
        }
        if let json {
            try Data(try report.json().utf8).write(to: URL(fileURLWithPath: json))
        }
    }
}
