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
        for slot in slots { buckets[Int(slot.id.firstByte)].append(slot) }
    }

    /// Every slot, in id order (the slots of an id named twice next to each other).
    package consuming func sorted() -> [RecordStore.BlockSlot] {
        buckets.withUnsafeMutableBufferPointer { buffer in
            let shared = Shared(buffer: buffer)
            DispatchQueue.concurrentPerform(iterations: buffer.count) { index in
                shared.buffer[index].sort { $0.id < $1.id }
            }
        }
        // Bucket after bucket, each copied whole (through `joined()`, one slot at a time).
        var sorted: [RecordStore.BlockSlot] = []
        sorted.reserveCapacity(buckets.reduce(0) { $0 + $1.count })
        for bucket in buckets { sorted += bucket }
        return sorted
    }

    /// The buckets, which the threads share: each sorts only its own.
    private struct Shared: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<[RecordStore.BlockSlot]>
    }
}
