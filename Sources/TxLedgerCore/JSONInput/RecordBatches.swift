import Foundation

/// The records of a `record --json` list, decoded a batch at a time on threads of their own
/// (`ProducerThread`, and two batches at once beside it) while the ledger writes the batches
/// before them (`Ledger.record(batches:)`): Foundation's `JSONDecoder` takes more time than
/// writing the records does, and this machine has two cores.
package enum RecordBatches {
    /// Records per batch.
    static let batchSize = 1000
    /// Batches decoded at once.
    private static let decodedTogether = 2

    /// A batch did not decode. The whole document decoded at once says why, in the words it
    /// always has (`RecordJSONInput.decode`).
    package struct DecodingFailure: Error {}

    /// Starts decoding the records of `data` if it is a list that `RecordListElements` follows;
    /// `nil` if not. A batch that does not decode ends them with `DecodingFailure`, after the
    /// batches before it.
    package static func start(_ data: Data) -> ProducerThread<TransactionRecord>? {
        guard let ranges = data.withUnsafeBytes(RecordListElements.ranges(in:)) else { return nil }
        // Each batch's records, with the commas between them.
        let batches = stride(from: 0, to: ranges.count, by: batchSize).map { start in
            let batch = ranges[start..<min(start + batchSize, ranges.count)]
            return data.startIndex + batch.first!.lowerBound..<data.startIndex + batch.last!.upperBound
        }
        return ProducerThread(name: "txledger.record-json", limit: BatchLimit(count: batchSize)) { yield in
            for start in stride(from: 0, to: batches.count, by: decodedTogether) {
                let together = batches[start..<min(start + decodedTogether, batches.count)]
                for records in decode(together.map { data[$0] }) {
                    guard let records else { throw DecodingFailure() }
                    // Counted by number only: the list they come from is in memory whole.
                    for record in records { try yield(record, 0) }
                }
            }
        }
    }

    /// The records of each list of `elements`, decoded at once on as many threads; `nil` for a
    /// list that does not decode.
    private static func decode(_ elements: [Data]) -> [[TransactionRecord]?] {
        let decoded = LockedValue([[TransactionRecord]?](repeating: nil, count: elements.count))
        DispatchQueue.concurrentPerform(iterations: elements.count) { index in
            let records = try? RecordJSONInput.decodeList(elements[index])
            decoded.update { $0[index] = records }
        }
        return decoded.get()
    }
}
