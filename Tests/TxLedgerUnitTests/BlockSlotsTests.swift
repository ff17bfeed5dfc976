import Testing

@testable import TxLedgerCore
@testable import TxLedgerStore

/// Where a load's records are (`BlockSlots`): bucketed by their id's first byte as blocks are
/// written, given back in id order for the directory, with an id named twice side by side.
struct BlockSlotsTests {
    @Test func slotsComeBackInIDOrderWithRepeatedIDsSideBySide() {
        var generator = SystemRandomNumberGenerator()
        let ids = (0..<3000).map { _ in
            TransactionID(bytes: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })!
        }
        // Every tenth id named again in a later block, as a change set that names a record twice.
        let named = ids + ids.enumerated().filter { $0.offset % 10 == 0 }.map(\.element)
        var slots = BlockSlots()
        for start in stride(from: 0, to: named.count, by: 1024) {
            let block = UInt32(start / 1024 + 1)
            slots.append(
                contentsOf: named[start..<min(start + 1024, named.count)].enumerated().map {
                    RecordStore.BlockSlot(id: $0.element, block: block, slot: UInt16($0.offset))
                }
            )
        }
        var sorted: [RecordStore.BlockSlot] = []
        var groups: [Int] = []
        BlockSlots.forEachID(in: slots.sortedBuckets()) { named in
            sorted += named
            groups.append(named.count)
        }
        #expect(sorted.map(\.id) == named.sorted())
        #expect(Set(sorted.map { "\($0.block).\($0.slot)" }).count == named.count)
        // Each id once, its slots together: 300 named twice.
        #expect(groups.count == ids.count)
        #expect(groups.filter { $0 == 2 }.count == 300)
    }
}
