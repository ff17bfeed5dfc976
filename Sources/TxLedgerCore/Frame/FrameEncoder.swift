/// Encodes record frames (Specs/bundle-format.md, "Record frames") in format 4, with the
/// tables its frames share: repeated texts (`SharedTextTable`) and replica ids are written once.
/// A bundle's payload has one encoder for its header and all its frames (its origin is replica
/// 0); a ledger file's stored frames refer to the file's tables (`init(stored:)`) and leave out
/// `timestamp_ms`, which their row's `time` holds.
package struct FrameEncoder {
    /// Entries that stored frames added to a ledger file's tables, in the order they take.
    package typealias AddedEntries = (texts: [String], replicas: [ReplicaID])

    private var replicaIndex: [Int64: UInt64] = [:]
    private var sharedTexts = SharedTextTable()
    /// Whether frames refer to a ledger file's tables instead of introducing entries.
    private let stored: Bool
    /// The entries that stored frames added to the file's tables, in order, until taken.
    private var added: AddedEntries = ([], [])
    /// For transcoding stored frames: the index in this payload's table of each entry of the
    /// file's table of texts (by the entry's index), once written; `nil` before.
    private var payloadIndexOfStoredText: [Int?] = []
    /// For storing received frames: what the last payload's table entries are written as.
    private var received: ReceivedTableMap?
    /// While `storedFrameIfHeld(_:)` encodes: whether the frame needs an entry the file's
    /// tables lack (none is added then).
    private var probing = false
    private var lacksEntry = false

    /// An encoder for a payload, whose replica table starts with `origin`.
    package init(origin: ReplicaID? = nil) {
        stored = false
        if let origin { replicaIndex[origin.rawValue] = 0 }
    }

    /// An encoder for frames stored in a ledger file whose tables are `tables`.
    package init(stored tables: FrameTables) {
        stored = true
        sharedTexts = tables.texts
        for (index, replica) in tables.replicas.enumerated() { replicaIndex[replica.rawValue] = UInt64(index) }
    }

    /// The entries the frames encoded since the last call added to the file's tables (stored
    /// frames only): what the store writes to `frame_text` and `frame_replica`.
    package mutating func takeAddedEntries() -> AddedEntries {
        defer { added = ([], []) }
        return added
    }

    /// The frame of `record`: its fields, but for an explorer page that the chain's default
    /// gives (the reader derives the same default).
    package mutating func frame(_ record: RecordState) -> [UInt8] {
        frame(record.frameFields)
    }

    /// The frame `frame(_:)` gives for `record` among stored frames if the file's tables
    /// already hold every entry it refers to, else `nil`; either way no entry is added. A
    /// record whose stored frame is this one is stored as `record` is (a merge compares them
    /// before it decodes the stored row: `BatchMerge`).
    package mutating func storedFrameIfHeld(_ record: RecordState) -> [UInt8]? {
        precondition(stored, "only stored frames refer to a file's tables")
        probing = true
        lacksEntry = false
        defer { probing = false }
        let frame = frame(record)
        return lacksEntry ? nil : frame
    }

    /// The frame of `fields` as they are (tests make malformed frames with it); the vault is
    /// the payload's.
    package mutating func frame(_ fields: RecordFields) -> [UInt8] {
        var frame: [UInt8] = []
        frame.reserveCapacity(256)
        var bases = FrameTimeBases()
        var previous = 0
        for (field, value) in fields.presentFields {
            let number = field.number
            if stored && field == .timestampMs {
                if case let .integer(millis) = value { bases.pass(number, value: millis) }
                continue
            }
            Self.tag(number, field.encoding.wireType, after: &previous, to: &frame)
            switch (field.encoding, value) {
            case let (.integer, .integer(integer)): frame.appendSVarint(integer)
            case let (.replica, .integer(replica)): appendReplicaReference(replica, to: &frame)
            case let (.text, .text(text)): frame.appendCompactText(text)
            case let (.sharedText, .text(text)): appendSharedText(text, repeats: field.repeatsAcrossRecords, to: &frame)
            case let (.sinceTimestamp, .integer(millis)):
                frame.appendSVarint(millis &- base(of: number, field.encoding, in: bases))
            case let (.stampTime, .integer(time)):
                frame.appendStampTime(time, base: base(of: number, field.encoding, in: bases))
            default: preconditionFailure("field \(field.name) holds \(value), not a \(field.encoding)")
            }
            if case let .integer(integer) = value { bases.pass(number, value: integer) }
        }
        for field in fields.newer.fields {
            Self.tag(field.number, field.value.wireType, after: &previous, to: &frame)
            switch field.value {
            case let .varint(value): frame.appendUVarint(value)
            case let .stampTime(time): frame.appendStampTime(time, base: base(of: field.number, .stampTime, in: bases))
            case let .text(text): frame.appendCompactText(text)
            case let .sharedText(text): appendSharedText(text, repeats: false, to: &frame)
            case let .replica(replica): appendReplicaReference(replica.rawValue, to: &frame)
            case let .bytes(value):
                frame.appendUVarint(UInt64(value.count))
                frame += value
            }
        }
        return frame
    }

    /// The frame that `frame(_:)` gives for the record stored as `stored` in a ledger file whose
    /// tables are `tables`, in a row whose `time` is `timestamp`, made without decoding the
    /// record (Specs/schema.md, "Exporting stored frames"): every value is copied as stored
    /// but for shared texts and replicas, written as this payload's tables refer to them, and
    /// `timestamp_ms`, put back in its place. The frame's structure is checked (its tags, wire
    /// types, lengths and references); its values are the reader's to validate, as it
    /// validates every frame.
    /// - Throws: `BundleError.malformedContent` if `stored` is not a well-formed stored frame.
    package mutating func frame(transcoding stored: [UInt8], timestamp: Int64, tables: FrameTables) throws -> [UInt8] {
        precondition(!self.stored, "a payload's encoder transcodes stored frames")
        var source = FrameBytes(stored)
        var frame: [UInt8] = []
        frame.reserveCapacity(stored.count + 16)
        var previous = 0
        let timestampField = RecordField.timestampMs.number
        func appendTimestamp(after previous: inout Int, to frame: inout [UInt8]) {
            Self.tag(timestampField, .varint, after: &previous, to: &frame)
            frame.appendSVarint(timestamp)
        }
        var last = 0
        while !source.isAtEnd {
            let (number, wire) = try FrameDecoder.readTag(from: &source, after: last, record: 0)
            last = number
            if let field = RecordField(number: number), field == .timestampMs || field.encoding.wireType != wire {
                throw BundleError.malformedContent(
                    "field \(number) (\(field.name)) has no place in a stored frame as wire type \(wire.rawValue)"
                )
            }
            if previous < timestampField && number > timestampField { appendTimestamp(after: &previous, to: &frame) }
            Self.tag(number, wire, after: &previous, to: &frame)
            switch wire {
            case .varint: frame.appendUVarint(try source.readUVarint())
            case .stampTime:
                frame.appendUVarint(try source.readUVarint())
                frame.appendUVarint(UInt64(try source.readCount(limit: 1 << Stamp.counterBits - 1, "a stamp counter")))
            case .text:
                let head = try source.readUVarint()
                frame.appendUVarint(head)
                try source.copyBytes(try Self.length(head >> 2, within: stored), to: &frame)
            case .bytes:
                let count = try source.readUVarint()
                frame.appendUVarint(count)
                try source.copyBytes(try Self.length(count, within: stored), to: &frame)
            case .sharedText:
                let reference = try source.readCount(limit: tables.texts.entries.count, "a shared text reference")
                if reference == 0 {
                    frame.appendSharedText(try source.readCompactText(limit: stored.count), table: &sharedTexts)
                } else {
                    appendStoredText(reference - 1, of: tables, to: &frame)
                }
            case .replica:
                let replica = try FrameDecoder.storedReplica(from: &source, table: tables.replicas)
                appendReplicaReference(replica.rawValue, to: &frame)
            }
        }
        if previous < timestampField { appendTimestamp(after: &previous, to: &frame) }
        return frame
    }

    /// The stored frame of the record received in `received`, made from its bytes without
    /// encoding the record (Specs/schema.md, "Storing a received frame"): the same bytes as
    /// `frame(_:)` of that record, since the frame is the one a writer writes for it. Each value
    /// is copied as received but for `timestamp_ms`, left out (its row's `time` holds it),
    /// shared texts and replicas, written as the file's tables refer to them (entries added as
    /// `frame(_:)` adds them), and every tag, whose step changes where field 3 goes. `nil` for a
    /// frame that writes a shared text out (one its payload's table could not take) or holds a
    /// field this version does not know (`receivedRecord` keeps neither): encode the record.
    /// - Throws: `BundleError.malformedContent` if the frame is not one its decoder accepted.
    package mutating func frame(storing received: ReceivedFrame) throws -> [UInt8]? {
        precondition(stored && !probing, "received frames are stored, as encoded frames are")
        return try transcode(received, factsOnly: false)
    }

    /// The facts of the record received in `received` as its stored frame would hold them
    /// (`frame(storing:)`, but for its facts alone: `RecordField.isFact`), if the file's tables
    /// already hold every entry they refer to, else `nil`; either way no entry is added. A stored
    /// row that holds the same bytes holds the same facts (Specs/schema.md, "Merging a record
    /// whose row holds its facts").
    /// - Throws: `BundleError.malformedContent` if the frame is not one its decoder accepted.
    package mutating func storedFacts(of received: ReceivedFrame) throws -> StoredFrameFields? {
        precondition(stored, "only stored frames refer to a file's tables")
        probing = true
        lacksEntry = false
        defer { probing = false }
        return try transcode(received, factsOnly: true).flatMap(StoredFrameFields.init)
    }

    /// The stored frame of `record` whose facts the stored frame `facts` holds, byte for byte:
    /// those bytes, and `record`'s other fields encoded (`RecordState.registerFields`). The
    /// frame `frame(_:)` gives, with the same entries added to the file's tables, as long as
    /// the tables held every entry of the facts when `facts` was compared with them
    /// (`storedFacts(of:)`): entries are never removed, so encoding the facts adds none.
    package mutating func frame(_ record: RecordState, keepingFactsOf facts: StoredFrameFields) -> [UInt8] {
        // A newer version's fields are sorted out by `frame(_:)` (a merge of one does not keep
        // the facts' bytes: `StoredFrameFields` refuses them).
        guard record.newerFields.isEmpty, let rest = StoredFrameFields(frame(record.registerFields)) else {
            return frame(record)
        }
        return facts.keepingFacts(with: rest)
    }

    /// The stored frame of the received frame, or of its facts alone (`factsOnly`), copied as
    /// `frame(storing:)` says; `nil` for a frame that writes a shared text out or holds a field
    /// this version does not know, and, while probing, for one that needs an entry the file's
    /// tables lack.
    private mutating func transcode(_ received: ReceivedFrame, factsOnly: Bool) throws -> [UInt8]? {
        if self.received?.tables !== received.tables { self.received = ReceivedTableMap(tables: received.tables) }
        var source = FrameBytes(received.bytes)
        var frame: [UInt8] = []
        // A stored frame writes out the shared texts of fields whose values rarely repeat, which
        // the payload referred to: a fifth of a 1M load's frames grew past the received size
        // (20 or 39 bytes more: one or two addresses), each then allocated and copied again.
        frame.reserveCapacity(received.bytes.count + Self.writtenOutRoom)
        var (previous, last) = (0, 0)
        var (texts, replicas) = (received.textsBefore, received.replicasBefore)
        while !source.isAtEnd {
            let (number, wire) = try FrameDecoder.readTag(from: &source, after: last, record: 0)
            last = number
            guard let field = RecordField(number: number), field.encoding.wireType == wire else { return nil }
            // A field left out is still read: the entries it introduces are the payload's.
            let kept = field != .timestampMs && (!factsOnly || field.isFact)
            if kept { Self.tag(number, wire, after: &previous, to: &frame) }
            switch wire {
            case .varint:
                let value = try source.readUVarint()
                if kept { frame.appendUVarint(value) }
            case .stampTime:
                let (millis, counter) = (try source.readUVarint(), try source.readUVarint())
                if kept {
                    frame.appendUVarint(millis)
                    frame.appendUVarint(counter)
                }
            case .text, .bytes:
                let head = try source.readUVarint()
                let count = Int(clamping: wire == .text ? head >> 2 : head)
                if kept {
                    frame.appendUVarint(head)
                    try source.copyBytes(count, to: &frame)
                } else {
                    try source.skip(count)
                }
            case .sharedText:
                let reference = try source.readCount(limit: texts + 1, "a shared text reference")
                guard reference > 0 else { return nil }
                if reference == texts + 1 {
                    _ = try source.readCompactText(limit: received.bytes.count)
                    texts += 1
                }
                if kept { frame += try storedText(reference - 1, repeats: field.repeatsAcrossRecords) }
            case .replica:
                let index = try source.readCount(limit: replicas, "a replica reference")
                if index == replicas {
                    _ = try source.readID64()
                    replicas += 1
                }
                if kept { frame += try storedReplica(index) }
            }
            if probing && lacksEntry { return nil }
        }
        return frame
    }

    /// Bytes a stored frame is given beyond its received frame's: room for the texts it writes
    /// out (`appendSharedText`), two compacted addresses and their lengths.
    static let writtenOutRoom = 64

    /// What a stored frame writes for text entry `entry` of the received payload's table, in a
    /// field that `repeats` across records or not: as `appendSharedText` writes it.
    private mutating func storedText(_ entry: Int, repeats: Bool) throws -> [UInt8] {
        if let bytes = received?.textBytes(entry, repeats: repeats) { return bytes }
        guard let text = try received?.text(entry) else { preconditionFailure("a received frame has its tables") }
        var bytes: [UInt8] = []
        appendSharedText(text, repeats: repeats, to: &bytes)
        // While probing, a text the file's tables lack has no bytes yet.
        if !probing || !lacksEntry { received?.remember(bytes, text: entry, repeats: repeats) }
        return bytes
    }

    /// What a stored frame writes for replica entry `entry` of the received payload's table.
    private mutating func storedReplica(_ entry: Int) throws -> [UInt8] {
        if let bytes = received?.replicaBytes(entry) { return bytes }
        guard let replica = try received?.replica(entry) else { preconditionFailure("a received frame has its tables") }
        var bytes: [UInt8] = []
        appendReplicaReference(replica.rawValue, to: &bytes)
        if !probing || !lacksEntry { received?.remember(bytes, replica: entry) }
        return bytes
    }

    /// Appends the tag of field `number` with wire type `wire` to `frame`, whose last field was
    /// `previous` (a tag holds the difference), and makes `number` the last.
    static func tag(_ number: Int, _ wire: WireType, after previous: inout Int, to frame: inout [UInt8]) {
        frame.appendUVarint(UInt64(number - previous) << 3 | UInt64(wire.rawValue))
        previous = number
    }

    /// A length read from a frame of `frame.count` bytes, which it cannot exceed.
    private static func length(_ length: UInt64, within frame: [UInt8]) throws -> Int {
        guard length <= UInt64(frame.count) else {
            throw BundleError.malformedContent("a length \(length) exceeds its frame")
        }
        return Int(length)
    }

    /// Writes entry `index` of the file's table of texts as this payload's table has it,
    /// introducing it on first use.
    private mutating func appendStoredText(_ index: Int, of tables: FrameTables, to frame: inout [UInt8]) {
        if index < payloadIndexOfStoredText.count, let known = payloadIndexOfStoredText[index] {
            return frame.appendUVarint(UInt64(known) + 1)
        }
        let text = tables.texts.entries[index]
        frame.appendSharedText(text, table: &sharedTexts)
        guard let known = sharedTexts.index(of: text) else { return }
        if index >= payloadIndexOfStoredText.count {
            payloadIndexOfStoredText += Array(repeating: nil, count: index + 1 - payloadIndexOfStoredText.count)
        }
        payloadIndexOfStoredText[index] = known
    }

    /// A record's bases are required fields, always there before the fields that use them.
    private func base(of number: Int, _ encoding: FieldEncoding, in bases: FrameTimeBases) -> Int64 {
        guard let base = try? bases.base(of: number, encoding) else {
            preconditionFailure("a valid record has its time bases")
        }
        return base
    }

    /// Writes a shared text: in a payload, introducing it into the table if it is new; in a
    /// stored frame, a reference to the file's table (added to it if it is new and fits), or
    /// written out (`0`) for a field whose values rarely repeat or when the table is full.
    private mutating func appendSharedText(_ text: String, repeats: Bool, to frame: inout [UInt8]) {
        guard stored else { return frame.appendSharedText(text, table: &sharedTexts) }
        if repeats {
            if let index = sharedTexts.index(of: text) { return frame.appendUVarint(UInt64(index) + 1) }
            if sharedTexts.hasRoom(for: text) {
                if probing {
                    lacksEntry = true
                    return
                }
                sharedTexts.add(text)
                added.texts.append(text)
                return frame.appendUVarint(UInt64(sharedTexts.entries.count))
            }
        }
        frame.appendUVarint(0)
        frame.appendCompactText(text)
    }

    /// Writes a replica reference to `bytes`, introducing `replica` into the table if it is new
    /// (a stored frame adds it to the file's table instead, unless the table is full).
    package mutating func appendReplicaReference(_ replica: Int64, to bytes: inout [UInt8]) {
        if let index = replicaIndex[replica] {
            bytes.appendUVarint(index)
        } else if stored && replicaIndex.count < FrameDecoder.maxReplicas {
            if probing {
                lacksEntry = true
                return
            }
            let index = UInt64(replicaIndex.count)
            replicaIndex[replica] = index
            added.replicas.append(ReplicaID(rawValue: replica))
            bytes.appendUVarint(index)
        } else if stored {
            bytes.appendUVarint(UInt64(replicaIndex.count))
            bytes.appendBigEndian(UInt64(replica), width: 8)
        } else {
            let index = UInt64(replicaIndex.count)
            replicaIndex[replica] = index
            bytes.appendUVarint(index)
            bytes.appendBigEndian(UInt64(replica), width: 8)
        }
    }
}
