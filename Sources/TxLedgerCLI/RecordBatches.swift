import Foundation
import TxLedger

/// The records of a `record --json` list, decoded a batch at a time on a thread of their own
/// (`ProducerThread`) while the ledger writes the batches before them
/// (`Ledger.record(batches:)`): decoding JSON and writing records each take about half the time
/// of the whole, and this machine has two cores.
enum RecordBatches {
    /// Records per batch.
    static let batchSize = 1000

    /// A batch did not decode. The whole document decoded at once says why, in the words it
    /// always has (`RecordJSONInput.decode`).
    struct DecodingFailure: Error {}

    /// Starts decoding the records of `data` if it is a list that `RecordListElements` follows;
    /// `nil` if not. A batch that does not decode ends them with `DecodingFailure`.
    static func start(_ data: Data) -> ProducerThread<TransactionRecord>? {
        guard let ranges = data.withUnsafeBytes(RecordListElements.ranges(in:)) else { return nil }
        return ProducerThread(name: "txledger.record-json", batchSize: batchSize) { yield in
            for start in stride(from: 0, to: ranges.count, by: batchSize) {
                let batch = ranges[start..<min(start + batchSize, ranges.count)]
                // The batch's records, with the commas between them.
                let bytes = data.startIndex + batch.first!.lowerBound..<data.startIndex + batch.last!.upperBound
                guard let records = try? RecordJSONInput.decodeList(data[bytes]) else { throw DecodingFailure() }
                try records.forEach(yield)
            }
        }
    }
}
