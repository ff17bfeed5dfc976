import TxLedger

/// bundle.*: replica A (`sizes.batch` records) exported to an encrypted bundle with a sync key,
/// imported into a fresh replica, then imported again into that replica, which has it all.
/// Baseline: libsodium secretstream encrypting as many bytes as the bundle holds.
struct BundleScenario {
    let sizes: BenchSizes
    let files: LedgerFiles
    let report: BenchReport

    func run(replicaA: String, vault: String) async throws {
        let secret = BundleSecret.syncKey(.generate())
        let bundle = files.path("a.bundle")
        let a = try Ledger(path: replicaA)
        let export = try await Stopwatch.seconds {
            _ = try await a.exportBundle(vault: vault, to: bundle, secret: secret, scope: .full)
        }
        let bytes = try files.size("a.bundle")
        let crypto = await SecretStreamBaseline.seconds(encrypting: bytes)
        let name = "secretstream over the bundle's bytes"
        report.add("bundle.export.100k", .cost(export, unit: "s", baseline: crypto, name: name))

        let fresh = try Ledger(path: try files.freshLedger("import.sqlite"))
        var first: BundleImport?
        var again: BundleImport?
        let importing = try await Stopwatch.seconds { first = try await fresh.importBundle(at: bundle, secret: secret) }
        let reimporting = try await Stopwatch.seconds {
            again = try await fresh.importBundle(at: bundle, secret: secret)
        }
        guard first?.report.recordsAdded == sizes.batch, again?.report.changedAnything == false else {
            throw BenchFailure(
                description: "bundle: the import did not add every record, or the second one changed something"
            )
        }
        report.add("bundle.import.100k", .cost(importing, unit: "s", baseline: crypto, name: name))
        report.add("bundle.reimport.100k", .cost(reimporting, unit: "s", baseline: crypto, name: name))
        report.add("bundle.bytes_per_record", .cost(Double(bytes) / Double(sizes.batch), unit: "B"))
        files.discard("import.sqlite", "a.bundle")
    }
}
