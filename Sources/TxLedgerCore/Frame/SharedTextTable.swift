/// Format 2's table of repeated texts (Specs/bundle-format.md, "Primitives"): a chain, a
/// token, a sender or a status is written once per bundle and then referred to by number.
///
/// A shared text is a uvarint `i`: `0`, then a compact text that the table cannot take (it is
/// full); `1` to the table's size, its entry `i − 1`; the size + 1, then a compact text that
/// becomes the next entry. The writer refers to every entry it has and adds every new text
/// that fits, so each text has one encoding; the table's limits bound a reader's memory.
package struct SharedTextTable {
    /// Most entries a bundle's table may have.
    static let maxEntries = 1 << 16
    /// Most UTF-8 bytes all entries of a bundle's table together may hold.
    static let maxTotalBytes = 16 << 20

    /// This table's limits: a bundle's by default; a ledger file's table is smaller
    /// (`FrameTables.stored`), since every read of the file loads it.
    let maxEntries: Int
    let maxTotalBytes: Int

    package private(set) var entries: [String] = []
    /// The entries' numbers, kept once the table outgrows a linear search (a stored record's
    /// frame has a table of a few entries; a bundle's has many).
    private var indexes: [String: Int] = [:]
    private static let linearEntries = 16
    private var totalBytes = 0

    init(maxEntries: Int = Self.maxEntries, maxTotalBytes: Int = Self.maxTotalBytes) {
        self.maxEntries = maxEntries
        self.maxTotalBytes = maxTotalBytes
    }

    /// The entry's number (from 0) of `text`, if it is one.
    package func index(of text: String) -> Int? {
        entries.count <= Self.linearEntries ? entries.firstIndex(of: text) : indexes[text]
    }

    /// Whether a text that is not an entry yet fits in the table.
    package func hasRoom(for text: String) -> Bool {
        entries.count < maxEntries && text.utf8.count <= maxTotalBytes - totalBytes
    }

    package mutating func add(_ text: String) {
        precondition(index(of: text) == nil && hasRoom(for: text), "a shared text is added once, within the limits")
        entries.append(text)
        if entries.count > Self.linearEntries {
            if indexes.isEmpty {
                for (index, entry) in entries.enumerated() { indexes[entry] = index }
            } else {
                indexes[text] = entries.count - 1
            }
        }
        totalBytes += text.utf8.count
    }
}

extension Array where Element == UInt8 {
    /// Writes `text` as a shared text, adding it to `table` if it is new and fits.
    mutating func appendSharedText(_ text: String, table: inout SharedTextTable) {
        if let index = table.index(of: text) {
            appendUVarint(UInt64(index) + 1)
        } else if table.hasRoom(for: text) {
            appendUVarint(UInt64(table.entries.count) + 1)
            appendCompactText(text)
            table.add(text)
        } else {
            appendUVarint(0)
            appendCompactText(text)
        }
    }
}

extension PayloadSource {
    mutating func readSharedText(limit: Int, table: inout SharedTextTable) throws -> String {
        let reference = try readCount(limit: table.entries.count + 1, "a shared text reference")
        if reference > 0 && reference <= table.entries.count { return table.entries[reference - 1] }
        let text = try readCompactText(limit: limit)
        guard table.index(of: text) == nil else {
            throw BundleError.malformedContent("a shared text is written out although the table holds it")
        }
        if reference == 0 {
            guard !table.hasRoom(for: text) else {
                throw BundleError.malformedContent("a shared text is written out although the table has room for it")
            }
        } else {
            guard table.hasRoom(for: text) else {
                throw BundleError.malformedContent(
                    "the table of shared texts exceeds \(table.maxEntries) entries or \(table.maxTotalBytes) bytes"
                )
            }
            table.add(text)
        }
        return text
    }
}
