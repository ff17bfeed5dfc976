import TxLedger

/// merge.100k: replica B's full change set merged into replica A (`sizes.batch` records each).
/// Half of B's records are A's first half, which B saw fail where A has most of them confirmed,
/// each with a note B wrote (conflicting statuses, and notes where A has one); the other half are
/// new to A. Baseline: B's rows upserted into a copy of A with the raw C API, one transaction.
/// Each is timed `runs` times, alternating, and the medians reported.
/// Then the merged file's size per record (150k at full scale), its WAL checkpointed.
struct MergeScenario {
    let sizes: BenchSizes
    let files: LedgerFiles
    let report: BenchReport
    /// Timings of the merge and of its baseline, alternating.
    static let runs = 3

    /// - Returns: replica B's ledger file, left for the caller (`CLIScenario`) to use and
    ///   remove, and the seconds of the raw upsert of its rows into replica A.
    func run(replicaA: String, workload: Workload) async throws -> (replicaB: String, rawUpsert: Double) {
        let half = sizes.batch / 2
        var conflicts = 0
        let replicaB = try files.freshLedger("b.sqlite")
        let changes: ChangeSet
        do {
            let b = try Ledger(path: replicaB)
            let failed = StatusUpdate.failed(reason: "dropped: replaced by fee bump")
            let indexes = Array(0..<half) + Array(sizes.batch..<(sizes.batch + half))
            for start in stride(from: 0, to: indexes.count, by: BenchSizes.recordsPerBatch) {
                let records = try indexes[start..<min(start + BenchSizes.recordsPerBatch, indexes.count)].map { i in
                    i < half
                        ? try workload.record(i, status: failed, note: "checked on the laptop #\(i)")
                        : try workload.record(i)
                }
                try await b.record(records)
            }
            changes = try await b.changes(vault: workload.vault)
        }

        // The merge and its raw baseline alternate, so that both see the machine in the same
        // moods (its speed moves by up to a factor of two between minutes); each is the median.
        var seconds: [Double] = []
        var raw: [Double] = []
        for _ in 0..<Self.runs {
            let target = try files.copy(replicaA, to: "merge.sqlite")
            var merged = MergeReport()
            do {
                let a = try Ledger(path: target)
                seconds.append(try await Stopwatch.seconds { merged = try await a.merge(changes) })
            }
            guard merged.recordsAdded == sizes.batch - half, merged.recordsChanged == half else {
                throw BenchFailure(
                    description:
                        "merge.100k: expected \(sizes.batch - half) added and \(half) changed, got \(merged.recordsAdded) and \(merged.recordsChanged)"
                )
            }
            raw.append(
                try await RawBaseline.seconds(
                    copying: replicaB,
                    into: try files.copy(replicaA, to: "raw-merge.sqlite"),
                    .upsert
                )
            )
            conflicts = merged.conflictCounts.total
        }
        let (ours, rawUpsert) = (Stopwatch.median(of: seconds), Stopwatch.median(of: raw))
        report.add(
            "merge.100k",
            .cost(ours, unit: "s", baseline: rawUpsert, name: "raw upsert, 1 transaction, median of \(Self.runs)")
        )
        let merged150k = try files.checkpointedSize("merge.sqlite")
        report.add(
            "ledger.bytes_per_record",
            .cost(Double(merged150k) / Double(sizes.batch + half), unit: "B")
        )
        print(
            "    (\(sizes.batch - half) added, \(half) changed, \(conflicts) conflicts resolved; merge \(Stopwatch.listed(seconds)), raw \(Stopwatch.listed(raw)))"
        )
        files.discard("merge.sqlite", "raw-merge.sqlite")
        return (replicaB, rawUpsert)
    }
}
