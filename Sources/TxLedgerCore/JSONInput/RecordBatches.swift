import Foundation

/// The records of a `record --json` list, decoded a batch at a time on threads of their own
/// (`ProducerThread`, and two batches at once beside it) while the ledger writes the batches
/// before them (`Ledger.record(batches:)`): Foundation's `JSONDecoder` takes more time than
/// writing the records does, and this machine has two cores.
package enum RecordBatches {
    /// Records per batch, fewer once their JSON holds 4 MiB: a list of records of 1 MiB
    /// messages was decoded and handed over a thousand at a time.
    static let batch = BatchLimit(count: 1000, bytes: 4 << 20)
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
        let batches = Self.batches(of: ranges.map(\.count))
        return ProducerThread(name: "txledger.record-json", limit: batch) { yield in
            for start in stride(from: 0, to: batches.count, by: decodedTogether) {
                let together = batches[start..<min(start + decodedTogether, batches.count)]
                // Each batch's records, with the commas between them.
                let lists = together.map { elements in
                    let (first, end) = (ranges[elements.first!].lowerBound, ranges[elements.last!].upperBound)
                    return data[data.startIndex + first..<data.startIndex + end]
                }
                for (elements, records) in zip(together, decode(lists)) {
                    guard let records, records.count == elements.count else { throw DecodingFailure() }
                    for (element, record) in zip(elements, records) { try yield(record, ranges[element].count) }
                }
            }
        }
    }

    /// The elements of a list whose elements are `sizes` bytes long, cut in batches as full as
    /// `batch` lets them be, in order.
    static func batches(of sizes: [Int]) -> [Range<Int>] {
        var batches: [Range<Int>] = []
        var (start, bytes) = (0, 0)
        for (index, size) in sizes.enumerated() {
            bytes += size
            if batch.isReached(count: index + 1 - start, bytes: bytes) {
                batches.append(start..<index + 1)
                (start, bytes) = (index + 1, 0)
            }
        }
        if start < sizes.count { batches.append(start..<sizes.count) }
        return batches
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
