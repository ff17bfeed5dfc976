/// The sizes the issue names, times `scale` (at least 100 records each).
struct BenchSizes {
    let scale: Double

    /// record.batch, merge and bundle: 100k.
    var batch: Int { scaled(100_000) }
    /// record.single: 10k.
    var single: Int { scaled(10_000) }
    /// Records per device in devices.folder_key_bytes: 1k.
    var small: Int { scaled(1_000) }
    /// The large vault of delta, query and memory: 1M.
    var large: Int { scaled(1_000_000) }
    /// Records per `record(_:)` call in record.batch.
    static let recordsPerBatch = 1000
    /// The page reached through cursors in query.page_1000: 1000 (times the scale, at least 2).
    var deepPage: Int { max(2, Int((1000 * scale).rounded())) }

    private func scaled(_ count: Int) -> Int { max(100, Int((Double(count) * scale).rounded())) }
}
