import Testing

@testable import TxLedgerCore

/// `record --json`'s batches (`RecordBatches`): a thousand records, fewer once their JSON holds
/// 4 MiB, so a list of large records is decoded and written a few at a time.
struct RecordBatchesTests {
    @Test func smallRecordsGoAThousandToABatch() {
        #expect(RecordBatches.batches(of: Array(repeating: 300, count: 2500)) == [0..<1000, 1000..<2000, 2000..<2500])
    }

    @Test func largeRecordsGoAFewToABatch() {
        // Three of 1.5 MB pass 4 MiB; the last batch holds what is left.
        let sizes = Array(repeating: 1_500_000, count: 10) + [10]
        #expect(RecordBatches.batches(of: sizes) == [0..<3, 3..<6, 6..<9, 9..<11])
        #expect(RecordBatches.batches(of: []) == [])
    }
}
