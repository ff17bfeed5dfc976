/// layout.index.*: what each index of the `record` table costs the raw upsert of merge.100k
/// (replica B's rows into a copy of replica A, `RawBaseline.Write.upsert`). For each index, the
/// upsert into a copy of A without that index, against the upsert into a copy with every index,
/// the two alternating `runs` times (medians); then without any index but the id's, the
/// layout's floor. A ratio of 0.8 says that the index takes a fifth of the upsert.
struct IndexCostScenario {
    let files: LedgerFiles
    let report: BenchReport
    static let runs = 3

    func run(replicaA: String, replicaB: String) async throws {
        let indexes = try RawSQLite(path: replicaA).rows(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'record' AND sql IS NOT NULL ORDER BY name"
        ).compactMap { row -> String? in
            guard case let .text(name)? = row.first else { return nil }
            return name
        }
        for (label, dropped) in indexes.map({ ($0, [$0]) }) + [("all_but_id", indexes)] {
            var without: [Double] = []
            var with: [Double] = []
            for _ in 0..<Self.runs {
                without.append(try await upsert(replicaB, into: replicaA, dropping: dropped))
                with.append(try await upsert(replicaB, into: replicaA, dropping: []))
            }
            report.add(
                "layout.index.\(label)",
                .cost(
                    Stopwatch.median(of: without),
                    unit: "s",
                    baseline: Stopwatch.median(of: with),
                    name: "the same upsert with every index, median of \(Self.runs)"
                )
            )
        }
        files.discard("index-cost.sqlite")
    }

    /// Seconds of the raw upsert of `source`'s rows into a copy of `target` without `dropped`.
    private func upsert(_ source: String, into target: String, dropping dropped: [String]) async throws -> Double {
        let copy = try files.copy(target, to: "index-cost.sqlite")
        do {
            let database = try RawSQLite(path: copy)
            for index in dropped { try database.execute("DROP INDEX \(index)") }
            try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        return try await RawBaseline.seconds(copying: source, into: copy, .upsert)
    }
}
