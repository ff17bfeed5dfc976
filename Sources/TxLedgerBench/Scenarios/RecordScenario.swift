import TxLedger

/// record.batch: `sizes.batch` records through `record(_: [TransactionRecord])`, 1000 per call;
/// record.single: `sizes.single` records, one `record(_:)` (one durable transaction) each.
/// Baselines: the same rows inserted with the raw C API, in one transaction and one per row;
/// record.batch also against the rows in batches of 1000 as the ledger wrote them
/// (`record.batch.batched_raw`: the same transactions as the library's calls). record.batch
/// and its one-transaction baseline alternate `MergeScenario.runs` times and each is the
/// median, as merge.100k's (the machine's speed moves between minutes).
struct RecordScenario {
    let sizes: BenchSizes
    let files: LedgerFiles
    let report: BenchReport

    /// Runs both and returns the path of the batch ledger (replica A of the merge and bundle
    /// scenarios) and the seconds of its raw baseline, its rows inserted in one transaction.
    func run(workload: Workload) async throws -> (replica: String, rawInsert: Double) {
        var path = ""
        var batches: [Double] = []
        var raws: [Double] = []
        for _ in 0..<MergeScenario.runs {
            path = try files.freshLedger("a.sqlite")
            batches.append(
                try await recordSeconds(workload, count: sizes.batch, at: path, perCall: BenchSizes.recordsPerBatch)
            )
            let rawFile = try files.freshLedger("raw.sqlite")
            raws.append(try await RawBaseline.seconds(copying: path, into: rawFile, .insert))
        }
        let (batch, rawInsert) = (Stopwatch.median(of: batches), Stopwatch.median(of: raws))
        report.add(
            "record.batch",
            .rate(
                Double(sizes.batch) / batch,
                unit: "records/s",
                baseline: Double(sizes.batch) / rawInsert,
                name: "raw INSERT, 1 transaction, median of \(MergeScenario.runs)"
            )
        )
        print("    (record.batch \(Stopwatch.listed(batches)), raw \(Stopwatch.listed(raws)))")
        try await addRate(
            "record.batch.batched_raw",
            records: sizes.batch,
            in: batch,
            against: .insertBatches(rows: BenchSizes.recordsPerBatch),
            copying: path,
            named: "raw INSERT, 1000 per transaction"
        )

        let single = Workload(vault: "single", count: sizes.single, salt: 1)
        let singlePath = try files.freshLedger("single.sqlite")
        let one = try await recordSeconds(single, count: sizes.single, at: singlePath, perCall: 1)
        try await addRate(
            "record.single",
            records: sizes.single,
            in: one,
            against: .insertEach,
            copying: singlePath,
            named: "raw INSERT, 1 transaction each"
        )
        files.discard("raw.sqlite", "single.sqlite")
        return (path, rawInsert)
    }

    /// Reports `records` written in `seconds` as a rate, against the raw baseline `write` of
    /// the rows of the ledger at `source` (written into a fresh file, removed after), and
    /// returns the baseline's seconds.
    @discardableResult
    private func addRate(
        _ name: String,
        records: Int,
        in seconds: Double,
        against write: RawBaseline.Write,
        copying source: String,
        named baselineName: String
    ) async throws -> Double {
        let raw = try await RawBaseline.seconds(copying: source, into: try files.freshLedger("raw.sqlite"), write)
        report.add(
            name,
            .rate(
                Double(records) / seconds,
                unit: "records/s",
                baseline: Double(records) / raw,
                name: baselineName
            )
        )
        return raw
    }

    /// Seconds spent inside `record` calls (making the records is not timed).
    private func recordSeconds(_ workload: Workload, count: Int, at path: String, perCall: Int) async throws -> Double {
        let ledger = try Ledger(path: path)
        var seconds = 0.0
        for start in stride(from: 0, to: count, by: perCall) {
            let records = try (start..<min(start + perCall, count)).map(workload.record)
            if perCall == 1 {
                seconds += try await Stopwatch.seconds { _ = try await ledger.record(records[0]) }
            } else {
                seconds += try await Stopwatch.seconds { _ = try await ledger.record(records) }
            }
        }
        return seconds
    }
}
