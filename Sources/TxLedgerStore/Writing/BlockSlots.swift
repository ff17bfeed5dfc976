import Foundation
import TxLedgerCore

/// Where the records a load wrote to blocks are (`RecordStore.BlockSlot`), kept in 256 buckets
/// by their id's first byte as the blocks are written, for the directory, which takes them in
/// id order (`RecordStore.writeDirectory`). The directory is written at the end of the load,
/// when one core works alone: one sort of a million slots there took 0.25 s of a new device's
/// first sync, where sorting 256 buckets a 256th of that size each, on every core, takes less
/// than half of it.
package struct BlockSlots {
    private var buckets = [[RecordStore.BlockSlot]](repeating: [], count: 256)

    package init() {}

    package mutating func append(contentsOf slots: [RecordStore.BlockSlot]) {
        for slot in slots { buckets[Int(slot.id.leadingBits >> 56)].append(slot) }
    }

    /// The buckets, each sorted, so that their slots one bucket after the other are in id
    /// order (the slots of an id named twice side by side). Not joined into one array: that
    /// copy of every slot raised the peak of a new device's first sync of 1M by 18 MB.
    package consuming func sortedBuckets() -> [[RecordStore.BlockSlot]] {
        buckets.withUnsafeMutableBufferPointer { buffer in
            let shared = Shared(buffer: buffer)
            DispatchQueue.concurrentPerform(iterations: buffer.count) { index in
                shared.buffer[index].sort { $0.id < $1.id }
            }
        }
        return buckets
    }

    /// Calls `body` with the slots of each id of `buckets` (as `sortedBuckets` gives them), one
    /// id after the other in increasing order: one slot, or more for an id named twice.
    package static func forEachID(
        in buckets: [[RecordStore.BlockSlot]],
        _ body: (ArraySlice<RecordStore.BlockSlot>) throws -> Void
    ) rethrows {
        // An id's slots are all in one bucket.
        for sorted in buckets {
            var index = sorted.startIndex
            while index < sorted.endIndex {
                var end = index + 1
                while end < sorted.endIndex && sorted[end].id == sorted[index].id { end += 1 }
                try body(sorted[index..<end])
                index = end
            }
        }
    }

    /// The buckets, which the threads share: each sorts only its own.
    private struct Shared: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<[RecordStore.BlockSlot]>
    }
}
