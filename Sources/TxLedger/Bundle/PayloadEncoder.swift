/// Encodes a change set as a format 4 bundle payload (Specs/bundle-format.md, "Payload"): the
/// header, then one length-prefixed frame per record, with the newer fields a record holds
/// after the fields of the table. The encoding is deterministic: the same
/// change set, records in the same order, gives the same bytes.
///
/// Replica ids are written once: a replica reference is the uvarint index of a replica already
/// introduced (the origin is index 0), or the next index followed by the new id (`id64`).
/// Repeated texts are written once too (`SharedTextTable`), hex as bytes (`CompactText`), and
/// times as differences (`FrameTimeBases`).
struct PayloadEncoder {
    /// Encoded bytes not yet taken by the caller.
    var bytes: [UInt8] = []
    private var replicaIndex: [Int64: UInt64] = [:]
    private var sharedTexts = SharedTextTable()

    mutating func encode(_ header: ChangeSetHeader) {
        bytes.appendText(header.vaultId)
        bytes.appendBigEndian(UInt64(header.origin.rawValue), width: 8)
        replicaIndex[header.origin.rawValue] = 0
        bytes.appendUVarint(UInt64(header.since))
        bytes.appendUVarint(UInt64(header.through))
        let lineage = header.lineage ?? []
        bytes.appendUVarint(UInt64(lineage.count))
        for epoch in lineage {
            bytes.appendBigEndian(UInt64(epoch.id.rawValue), width: 8)
            bytes.appendUVarint(UInt64(epoch.firstSeq))
        }
        let knowledge = header.knowledge.sorted { $0.key < $1.key }
        bytes.appendUVarint(UInt64(knowledge.count))
        for (replica, seq) in knowledge {
            bytes += replicaReference(replica.rawValue)
            bytes.appendUVarint(UInt64(seq))
            bytes.appendBigEndian(UInt64(header.knowledgeEpochs[replica]?.rawValue ?? 0), width: 8)
        }
        if let watermark = header.clearedThrough {
            bytes.appendUVarint(1)
            bytes.appendSVarint(watermark.time)
            bytes += replicaReference(watermark.replica.rawValue)
        } else {
            bytes.appendUVarint(0)
        }
    }

    mutating func encode(_ record: RecordState) {
        var fields = record.fields
        let facts = record.facts.value
        if let url = facts.explorerUrl, url == facts.txHash.flatMap(facts.chain.explorerURL(txHash:)) {
            fields[.explorerUrl] = nil  // the reader derives the same default
        }
        encodeFrame(fields)
    }

    /// Writes one frame of `fields` as they are (tests make malformed frames with it); the
    /// vault is the header's.
    mutating func encodeFrame(_ fields: RecordFields) {
        var frame: [UInt8] = []
        var bases = FrameTimeBases()
        var previous = 0
        func tag(_ number: Int, _ wire: WireType) {
            frame.appendUVarint(UInt64(number - previous) << 3 | UInt64(wire.rawValue))
            previous = number
        }
        for field in RecordField.allCases {
            guard let value = fields[field] else { continue }
            let number = field.number
            tag(number, field.encoding.wireType)
            switch (field.encoding, value) {
            case let (.integer, .integer(integer)): frame.appendSVarint(integer)
            case let (.replica, .integer(replica)): frame += replicaReference(replica)
            case let (.text, .text(text)): frame.appendCompactText(text)
            case let (.sharedText, .text(text)): frame.appendSharedText(text, table: &sharedTexts)
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
            case let .sharedText(text): frame.appendSharedText(text, table: &sharedTexts)
            case let .replica(replica): frame += replicaReference(replica.rawValue)
            case let .bytes(value):
                frame.appendUVarint(UInt64(value.count))
                frame += value
            }
        }
        bytes.appendUVarint(UInt64(frame.count))
        bytes.append(contentsOf: frame)
    }

    /// A record's bases are required fields, always there before the fields that use them.
    private func base(of number: Int, _ encoding: FieldEncoding, in bases: FrameTimeBases) -> Int64 {
        guard let base = try? bases.base(of: number, encoding) else {
            preconditionFailure("a valid record has its time bases")
        }
        return base
    }

    private mutating func replicaReference(_ replica: Int64) -> [UInt8] {
        var reference: [UInt8] = []
        if let index = replicaIndex[replica] {
            reference.appendUVarint(index)
        } else {
            let index = UInt64(replicaIndex.count)
            replicaIndex[replica] = index
            reference.appendUVarint(index)
            reference.appendBigEndian(UInt64(replica), width: 8)
        }
        return reference
    }
}
