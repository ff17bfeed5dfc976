/// A set of small integers (operation positions), as 64-bit words.
struct BitSet: Sequence {
    private var words: [UInt64]

    init(count: Int, all: Bool = false) {
        words = Array(repeating: 0, count: (count + 63) / 64)
        if all { for index in 0..<count { insert(index) } }
    }

    func contains(_ index: Int) -> Bool { words[index / 64] >> UInt64(index % 64) & 1 == 1 }

    mutating func insert(_ index: Int) { words[index / 64] |= 1 << UInt64(index % 64) }

    mutating func formUnion(_ other: BitSet) {
        for index in words.indices { words[index] |= other.words[index] }
    }

    var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    /// Whether every element of this set is in `other` (a set of the same count).
    func isSubset(of other: BitSet) -> Bool {
        zip(words, other.words).allSatisfy { $0 & ~$1 == 0 }
    }

    /// Whether this set and `other` (of the same count) share an element.
    func intersects(_ other: BitSet) -> Bool {
        zip(words, other.words).contains { $0 & $1 != 0 }
    }

    func makeIterator() -> some IteratorProtocol<Int> {
        words.indices.lazy.flatMap { word in
            (0..<64).lazy.filter { self.words[word] >> UInt64($0) & 1 == 1 }.map { word * 64 + $0 }
        }
        .makeIterator()
    }
}
