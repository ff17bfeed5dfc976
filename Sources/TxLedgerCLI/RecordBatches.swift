import Foundation
import TxLedger

/// The records of a `record --json` list, decoded a batch at a time on a thread of their own
/// while the ledger writes the batches before them (`Ledger.record(batches:)`): decoding JSON
/// and writing records each take about half the time of the whole, and this machine has two
/// cores. At most `aheadLimit` decoded batches wait, so memory stays bounded.
final class RecordBatches: @unchecked Sendable {
    /// Records per batch.
    static let batchSize = 1000
    private static let aheadLimit = 4

    /// Guards everything below.
    private let condition = NSCondition()
    private var ready: [[TransactionRecord]] = []
    private var produced = false
    private var failure: Error?
    private var stopped = false

    /// A batch did not decode. The whole document decoded at once says why, in the words it
    /// always has (`RecordJSONInput.decode`).
    struct DecodingFailure: Error {}

    /// Starts decoding the records of `data` if it is a list that `RecordListElements` follows;
    /// `nil` if not.
    init?(_ data: Data) {
        guard let ranges = data.withUnsafeBytes(RecordListElements.ranges(in:)) else { return nil }
        let thread = Thread { [self] in produce(data, ranges) }
        thread.name = "txledger.record-json"
        thread.start()
    }

    /// The next batch, waiting for it; `nil` after the last.
    /// - Throws: `DecodingFailure` if a batch does not decode.
    func next() throws -> [TransactionRecord]? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !produced && failure == nil { condition.wait() }
        if let failure { throw failure }
        guard !ready.isEmpty else { return nil }
        condition.broadcast()
        return ready.removeFirst()
    }

    /// Stops the decoding thread (the write failed, or is over).
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func produce(_ data: Data, _ ranges: [Range<Int>]) {
        for start in stride(from: 0, to: ranges.count, by: Self.batchSize) {
            let batch = ranges[start..<min(start + Self.batchSize, ranges.count)]
            // The batch's records, with the commas between them.
            let bytes = data.startIndex + batch.first!.lowerBound..<data.startIndex + batch.last!.upperBound
            let records = try? RecordJSONInput.decodeList(data[bytes])
            condition.lock()
            defer { condition.unlock() }
            while ready.count >= Self.aheadLimit && !stopped { condition.wait() }
            guard !stopped else { return }
            condition.broadcast()
            guard let records else {
                failure = DecodingFailure()
                return
            }
            ready.append(records)
        }
        condition.lock()
        produced = true
        condition.broadcast()
        condition.unlock()
    }
}
