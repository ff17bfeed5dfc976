import Foundation
import TxLedger

/// The scenarios on a large vault (`sizes.large` records, 1M at full scale): queries; then a
/// full bundle decoded by `txledger inspect` (bundle.decode: every record decoded and
/// validated on one thread, nothing written) and imported by a fresh peer in a child process
/// (memory.import: its peak resident memory); then, once the peer has told this replica what
/// it holds, 10 changed records exported as the delta for that peer (delta.*); then, if asked,
/// the vault through a folder (`BootstrapScenario`).
struct LargeVaultScenario {
    let sizes: BenchSizes
    let files: LedgerFiles
    let report: BenchReport
    /// Whether to run `BootstrapScenario` on the vault too.
    var throughAFolder = false

    func run() async throws {
        let workload = Workload(vault: "large", count: sizes.large, salt: 2)
        let path = try files.freshLedger("x.sqlite")
        let x = try Ledger(path: path)
        let building = try await Stopwatch.seconds {
            for start in stride(from: 0, to: sizes.large, by: BenchSizes.recordsPerBatch) {
                try await x.record(
                    try (start..<min(start + BenchSizes.recordsPerBatch, sizes.large)).map(workload.record)
                )
            }
        }
        print(
            "    (built a \(sizes.large)-record vault in \(String(format: "%.1f", building)) s, making the records included)"
        )
        try await QueryScenario(sizes: sizes, report: report).run(x, vault: workload.vault)

        // A peer that imports everything, in a process of its own so that its peak memory is the import's.
        let keyFile = files.path("sync.key")
        try? FileManager.default.removeItem(atPath: keyFile)
        let key = SyncKey.generate()
        try key.write(toNewFile: keyFile)
        let secret = BundleSecret.syncKey(key)
        let full = files.path("x.bundle")
        let export = try await Stopwatch.seconds {
            _ = try await x.exportBundle(vault: workload.vault, to: full, secret: secret, scope: .full)
        }
        report.add("bundle.export.1m", .cost(export, unit: "s"))
        // Decoding and validating every record on one thread (`inspect` writes nothing).
        let decoding = try await CLIProcess().seconds(["inspect", full, "--key-file", keyFile])
        let bundleBytes = try files.size("x.bundle")
        report.add(
            "bundle.decode.1m",
            .cost(
                decoding,
                unit: "s",
                baseline: await SecretStreamBaseline.seconds(encrypting: bundleBytes),
                name: "secretstream over the bundle's bytes"
            )
        )
        let peerPath = try files.freshLedger("y.sqlite")
        let peak = try ImportPeak.measure(ledger: peerPath, bundle: full, keyFile: keyFile)
        report.add(
            "memory.import.1m_mb",
            .cost(peak.peakMB, unit: "MB", baseline: peak.beforeMB, name: "the same process before the import")
        )
        report.add("bundle.import.1m", .cost(peak.seconds, unit: "s"))

        // The peer answers (its delta for this replica says what it holds), then 10 records change here.
        let y = try Ledger(path: peerPath)
        try await QueryScenario(sizes: sizes, report: report, suffix: "_blocks").run(y, vault: workload.vault)
        let answer = files.path("y.bundle")
        try await y.exportBundle(vault: workload.vault, to: answer, secret: secret, scope: .forPeer(x.replicaID))
        _ = try await x.importBundle(at: answer, secret: secret)
        files.discard("y.bundle")
        for i in stride(from: 0, to: sizes.large, by: sizes.large / 10).prefix(10) {
            try await x.setNote("checked \(i)", for: try workload.record(i).id)
        }
        let delta = files.path("delta.bundle")
        var info: BundleInfo?
        let seconds = try await Stopwatch.median(runs: 11) {
            info = try await x.exportBundle(
                vault: workload.vault,
                to: delta,
                secret: secret,
                scope: .forPeer(y.replicaID)
            )
        }
        guard info?.recordCount == 10 else {
            throw BenchFailure(description: "the delta holds \(info?.recordCount ?? 0) records, not 10")
        }
        report.add("delta.export.1m", .cost(seconds, unit: "s"))
        report.add("delta.bytes", .cost(Double(try files.size("delta.bundle")), unit: "B"))
        if throughAFolder {
            try await BootstrapScenario(files: files, report: report).run(ledger: path, keyFile: keyFile)
        }
        files.discard("x.sqlite", "y.sqlite", "x.bundle", "delta.bundle", "sync.key")
    }
}
