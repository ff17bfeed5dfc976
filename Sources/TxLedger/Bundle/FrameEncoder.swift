/// Encodes record frames (Specs/bundle-format.md, "Record frames") in format 4, with the
/// tables its frames share: repeated texts (`SharedTextTable`) and replica ids are written once.
/// A bundle's payload has one encoder for its header and all its frames (its origin is replica
/// 0); a ledger file's stored frames refer to the file's tables (`init(stored:)`) and leave out
/// `timestamp_ms`, which their row's `time` holds.
struct FrameEncoder {
    private var replicaIndex: [Int64: UInt64] = [:]
    private var sharedTexts = SharedTextTable()
    /// Whether frames refer to a ledger file's tables instead of introducing entries.
    private let stored: Bool
    /// The entries that stored frames added to the file's tables, in order, until taken.
    private var added: (texts: [String], replicas: [ReplicaID]) = ([], [])

    /// An encoder for a payload, whose replica table starts with `origin`.
    init(origin: ReplicaID? = nil) {
        stored = false
        if let origin { replicaIndex[origin.rawValue] = 0 }
    }

    /// An encoder for frames stored in a ledger file whose tables are `tables`.
    init(stored tables: FrameTables) {
        stored = true
        sharedTexts = tables.texts
        for (index, replica) in tables.replicas.enumerated() { replicaIndex[replica.rawValue] = UInt64(index) }
    }

    /// The entries the frames encoded since the last call added to the file's tables (stored
    /// frames only): what the store writes to `frame_text` and `frame_replica`.
    mutating func takeAddedEntries() -> (texts: [String], replicas: [ReplicaID]) {
        defer { added = ([], []) }
        return added
    }

    /// The frame of `record`: its fields, but for an explorer page that the chain's default
    /// gives (the reader derives the same default).
    mutating func frame(_ record: RecordState) -> [UInt8] {
        var fields = record.fields
        let facts = record.facts.value
        if let url = facts.explorerUrl, let hash = facts.txHash, url.hasSuffix(hash),
            url == facts.chain.explorerURL(txHash: hash)
        {
            fields[.explorerUrl] = nil
        }
        return frame(fields)
    }

    /// The frame of `fields` as they are (tests make malformed frames with it); the vault is
    /// the payload's.
    mutating func frame(_ fields: RecordFields) -> [UInt8] {
        var frame: [UInt8] = []
        frame.reserveCapacity(256)
        var bases = FrameTimeBases()
        var previous = 0
        func tag(_ number: Int, _ wire: WireType) {
            frame.appendUVarint(UInt64(number - previous) << 3 | UInt64(wire.rawValue))
            previous = number
        }
        for field in RecordField.all {
            guard let value = fields[field] else { continue }
            let number = field.number
            if stored && field == .timestampMs {
                if case let .integer(millis) = value { bases.pass(number, value: millis) }
                continue
            }
            tag(number, field.encoding.wireType)
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
            tag(field.number, field.value.wireType)
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
        if repeats, sharedTexts.index(of: text) == nil, sharedTexts.hasRoom(for: text) {
            sharedTexts.add(text)
            added.texts.append(text)
        }
        if repeats, let index = sharedTexts.index(of: text) {
            frame.appendUVarint(UInt64(index) + 1)
        } else {
            frame.appendUVarint(0)
            frame.appendCompactText(text)
        }
    }

    /// Writes a replica reference to `bytes`, introducing `replica` into the table if it is new
    /// (a stored frame adds it to the file's table instead, unless the table is full).
    mutating func appendReplicaReference(_ replica: Int64, to bytes: inout [UInt8]) {
        if let index = replicaIndex[replica] {
            bytes.appendUVarint(index)
        } else if stored && replicaIndex.count < FrameDecoder.maxReplicas {
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
