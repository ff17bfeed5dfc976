/// What a ledger file's stored frames write for the entries of one payload's tables
/// (`FrameEncoder.frame(storing:)`): each entry's text or replica, read from the payload's
/// `ReceivedTables` when a frame first refers to it, and the bytes a stored frame writes for
/// it, worked out once (a reference to the file's table, or the text written out).
struct ReceivedTableMap {
    let tables: ReceivedTables
    private var texts: [String] = []
    private var replicas: [ReplicaID] = []
    /// The bytes for each text entry in a field whose values repeat across records, in another
    /// shared-text field, and for each replica entry; `nil` until worked out.
    private var repeatingTexts: [[UInt8]?] = []
    private var otherTexts: [[UInt8]?] = []
    private var replicaReferences: [[UInt8]?] = []

    init(tables: ReceivedTables) {
        self.tables = tables
    }

    /// The bytes worked out for text entry `entry` in a field that `repeats` or not, if any.
    func textBytes(_ entry: Int, repeats: Bool) -> [UInt8]? {
        let known = repeats ? repeatingTexts : otherTexts
        return entry < known.count ? known[entry] : nil
    }

    mutating func remember(_ bytes: [UInt8], text entry: Int, repeats: Bool) {
        if repeats { Self.set(&repeatingTexts, entry, bytes) } else { Self.set(&otherTexts, entry, bytes) }
    }

    func replicaBytes(_ entry: Int) -> [UInt8]? {
        entry < replicaReferences.count ? replicaReferences[entry] : nil
    }

    mutating func remember(_ bytes: [UInt8], replica entry: Int) {
        Self.set(&replicaReferences, entry, bytes)
    }

    /// Text entry `entry` of the payload's table.
    /// - Throws: `BundleError.malformedContent` if the payload's decoder has not read it.
    mutating func text(_ entry: Int) throws -> String {
        if entry >= texts.count { catchUp() }
        guard entry < texts.count else {
            throw BundleError.malformedContent("a received frame refers to shared text \(entry + 1), not read")
        }
        return texts[entry]
    }

    /// Replica entry `entry` of the payload's table.
    /// - Throws: `BundleError.malformedContent` if the payload's decoder has not read it.
    mutating func replica(_ entry: Int) throws -> ReplicaID {
        if entry >= replicas.count { catchUp() }
        guard entry < replicas.count else {
            throw BundleError.malformedContent("a received frame refers to replica \(entry), not read")
        }
        return replicas[entry]
    }

    private mutating func catchUp() {
        let read = tables.entries(textsFrom: texts.count, replicasFrom: replicas.count)
        texts += read.texts
        replicas += read.replicas
    }

    private static func set(_ cache: inout [[UInt8]?], _ entry: Int, _ bytes: [UInt8]) {
        if entry >= cache.count { cache += Array(repeating: nil, count: entry + 1 - cache.count) }
        cache[entry] = bytes
    }
}
