import TxLedgerCore

/// The decrypted payload of a bundle, read across chunk boundaries.
struct StreamBytes: PayloadSource {
    private let reader: BundleReader
    private var chunk: [UInt8] = []
    private var position = 0

    init(_ reader: BundleReader) { self.reader = reader }

    /// Whether the payload ends here (the final chunk was read to its end).
    mutating func isAtEnd() throws -> Bool {
        try fill()
        return position == chunk.count
    }

    mutating func readByte() throws -> UInt8 {
        try fill()
        guard position < chunk.count else { throw BundleError.malformedContent("the payload ends inside a field") }
        defer { position += 1 }
        return chunk[position]
    }

    mutating func readBytes(_ count: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            try fill()
            guard position < chunk.count else { throw BundleError.malformedContent("the payload ends inside a field") }
            let take = Swift.min(count - bytes.count, chunk.count - position)
            bytes.append(contentsOf: chunk[position..<position + take])
            position += take
        }
        return bytes
    }

    /// Moves to the next chunk once this one is used up (and there is one).
    private mutating func fill() throws {
        while position == chunk.count, let next = try reader.nextChunk() {
            chunk = next
            position = 0
        }
    }
}
