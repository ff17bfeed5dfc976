/// Decodes record frames (Specs/bundle-format.md, "Record frames") in one payload's format,
/// with the tables its frames share: the texts and replica ids written once. A bundle's payload
/// has one decoder for its header and all its frames (its origin is replica 0); a ledger
/// file's stored frames refer to the file's tables and take `timestamp_ms` from their row
/// (`init(stored:timestamp:)`). Everything is checked as
/// `PayloadDecoder` says; any deviation is `BundleError.malformedContent`.
package struct FrameDecoder {
    /// The payload format that writers write and the store keeps frames in: the bundle
    /// format's version (Specs/bundle-format.md), which `BundleHeader` writes.
    package static let currentVersion: UInt8 = 5

    /// Where the frames come from: a payload, which introduces its tables' entries; a ledger
    /// file, whose frames refer to its tables; or a ledger file without its tables at hand
    /// (`record_text`), where a reference reads as its number.
    private enum Source {
        case payload, stored, storedUnresolved
    }

    /// Most entries the replica table may have.
    package static let maxReplicas = 1 << 16
    /// Largest frame a reader accepts, in bytes: a message may hold 1 Mi characters of UTF-8.
    package static let maxFrameBytes = 8 << 20

    let version: UInt8
    private let source: Source
    /// A stored frame's `timestamp_ms`, which its row's `time` holds instead of the frame.
    private var storedTimestamp: Int64?
    private var sharedTexts = SharedTextTable()
    private var replicas: [ReplicaID] = []
    /// The replica table's entries, to refuse one introduced twice in constant time.
    private var known: Set<ReplicaID> = []
    /// A payload's tables as the thread that stores its frames reads them
    /// (`FrameEncoder.frame(storing:)`), and how many entries of each it has been given.
    private var received: ReceivedTables?
    private var sharedCount = (texts: 0, replicas: 0)
    /// The fields of frames read before, given back (`recycle`) for later frames to reuse.
    private var spareFields: [RecordFields] = []
    /// Fields kept for reuse at most: as many as the frames validated at once
    /// (`PayloadDecoder.validatedTogether`).
    package static let maxSpareFields = 512

    /// A decoder for frames of format `version`, whose replica table starts with `origin`.
    package init(version: UInt8, origin: ReplicaID? = nil) {
        self.version = version
        source = .payload
        received = ReceivedTables()
        if let origin {
            replicas = [origin]
            known = [origin]
        }
    }

    /// A decoder for a frame stored in a ledger file whose tables are `tables`, in a row whose
    /// `time` is `timestamp` (the frame leaves `timestamp_ms` out).
    package init(stored tables: FrameTables, timestamp: Int64) {
        version = FrameDecoder.currentVersion
        source = .stored
        storedTimestamp = timestamp
        sharedTexts = tables.texts
        replicas = tables.replicas
    }

    /// A decoder for stored frames without their file's tables nor their row: a shared text
    /// that refers to the table reads as `.integer(reference)` (the entry's `num` in
    /// `frame_text`), replicas as placeholders, and times as if `timestamp_ms` were 0. Only for
    /// reading a known text field (`record_text`).
    package static func storedUnresolved() -> FrameDecoder {
        FrameDecoder(version: FrameDecoder.currentVersion, source: .storedUnresolved)
    }

    private init(version: UInt8, source: Source) {
        self.version = version
        self.source = source
    }

    /// The record `frame` holds, record `index` of its payload, in `vault`: decoded, its shape
    /// checked (`FrameShape`) and validated as the ledger validates input.
    package mutating func record(_ frame: [UInt8], vault: String, index: Int) throws -> RecordState {
        let fields = try fields(frame, vault: vault, index: index)
        defer { recycle(fields) }
        return try Self.record(fields, version: version, index: index)
    }

    /// The record a payload's `frame` holds, as `record(_:vault:index:)` reads it, and the frame
    /// as a store may keep it (`ReceivedFrame`): `nil` unless it is, field for field, the frame
    /// that encoding the record gives (Specs/schema.md, "Storing a received frame").
    package mutating func receivedRecord(_ frame: [UInt8], vault: String, index: Int) throws -> ReceivedRecord {
        let read = try self.read(frame, vault: vault, index: index)
        defer { recycle(read.fields) }
        return try read.validated()
    }

    /// What `frame` holds, record `index` of its payload, in `vault`, read in order: its fields,
    /// and the payload's tables as they were before it. Validating it (`DecodedFrame.validated`)
    /// needs nothing more from this decoder, so frames read in turn may be validated at once on
    /// several threads (`PayloadDecoder`). Its fields go back to `recycle` once validated.
    package mutating func read(_ frame: [UInt8], vault: String, index: Int) throws -> DecodedFrame {
        let before = (texts: sharedTexts.entries.count, replicas: replicas.count)
        let fields = try fields(frame, vault: vault, index: index)
        guard let received else {
            return DecodedFrame(bytes: frame, index: index, version: version, fields: fields, tables: nil)
        }
        // Every entry goes to the other thread, a frame kept or not: later frames refer to it.
        if sharedTexts.entries.count > sharedCount.texts || replicas.count > sharedCount.replicas {
            received.catchUp(texts: sharedTexts.entries, replicas: replicas)
            sharedCount = (sharedTexts.entries.count, replicas.count)
        }
        return DecodedFrame(
            bytes: frame,
            index: index,
            version: version,
            fields: fields,
            tables: (received, before.texts, before.replicas)
        )
    }

    /// Takes back the fields of a frame read before, once done with them: a later frame's
    /// fields reuse their storage (an array per frame was one of the seven allocations of
    /// reading a payload's record).
    package mutating func recycle(_ fields: consuming RecordFields) {
        guard spareFields.count < Self.maxSpareFields else { return }
        spareFields.append(fields)
    }

    /// The record a stored frame holds whose facts are `facts`, from the frame of its other
    /// fields (`StoredFrameFields.withoutFacts`): read and validated as `record(_:vault:index:)`
    /// reads a whole frame, but for the facts, which are not read (Specs/schema.md, "Merging a
    /// record whose row holds its facts").
    package mutating func record(_ registers: [UInt8], facts: TransactionFacts) throws -> RecordState {
        let fields = try fields(registers, vault: facts.vaultId, index: 0)
        defer { recycle(fields) }
        return try Self.record(fields, version: version, index: 0, facts: facts)
    }

    /// The record `fields` hold, read from record `index` of a frame of format `version`: its
    /// shape checked (`FrameShape`) and validated as the ledger validates input; with `facts`,
    /// the record of those facts and of the other registers `fields` hold.
    static func record(
        _ fields: RecordFields,
        version: UInt8,
        index: Int,
        facts: TransactionFacts? = nil
    ) throws -> RecordState {
        try FrameShape.check(fields, record: index)
        var record: RecordState
        do {
            record = try facts.map { try RecordState(facts: $0, registers: fields) } ?? RecordState(fields: fields)
        } catch let error as LedgerError {
            throw BundleError.malformedContent("record \(index): \(error.localizedDescription)", underlying: error)
        }
        try FrameShape.checkExplorerURL(sent: fields[.explorerUrl] != nil, of: record, record: index)
        // Formats before 4 know no evidence: an inference of theirs is one (crdt.md).
        if version < 4 { record = record.withOlderInference }
        return record
    }

    /// The fields `frame` holds, decoded but not validated as a record.
    package mutating func fields(_ frame: [UInt8], vault: String, index: Int) throws -> RecordFields {
        let length = frame.count
        var frame = FrameBytes(frame)
        var fields: RecordFields
        if var spare = spareFields.popLast() {
            spare.removeAll(vault: vault)
            fields = spare
        } else {
            fields = RecordFields(vault: vault)
        }
        var last = 0
        var bases = FrameTimeBases()
        switch source {
        case .payload: break
        case .stored:
            if let storedTimestamp {
                bases.pass(RecordField.timestampMs.number, value: storedTimestamp)
                fields[.timestampMs] = .integer(storedTimestamp)
            }
        case .storedUnresolved: bases.pass(RecordField.timestampMs.number, value: 0)
        }
        var newer: [NewerField] = []
        while !frame.isAtEnd {
            let (number, wire) = try readTag(from: &frame, after: last, record: index)
            last = number
            if version < 5, (RecordField.lastInFormat4.number + 1)...RecordField.last ~= number {
                throw BundleError.malformedContent(
                    "record \(index): field \(number) is format 5's clear register, which a format \(version) frame cannot hold"
                )
            }
            guard let field = RecordField(number: number) else {
                newer.append(
                    NewerField(
                        number: number,
                        value: try readNewerValue(
                            wire,
                            of: number,
                            from: &frame,
                            length: length,
                            bases: bases,
                            record: index
                        )
                    )
                )
                continue
            }
            let encoding = field.encoding.inFormat(version)
            if let wire, wire != encoding.wireType {
                throw BundleError.malformedContent(
                    "record \(index): field \(number) (\(field.name)) has wire type \(wire.rawValue), not \(encoding.wireType.rawValue)"
                )
            }
            switch encoding {
            case .integer:
                if field == .timestampMs && source != .payload {
                    throw BundleError.malformedContent(
                        "record \(index): a stored frame has no timestamp_ms (its row's time)"
                    )
                }
                let integer = try frame.readSVarint()
                bases.pass(number, value: integer)
                fields.append(field, .integer(integer))
            case .plainText: fields.append(field, .text(try frame.readText(limit: length)))
            case .text: fields.append(field, .text(try frame.readCompactText(limit: length)))
            case .sharedText: fields.append(field, try readSharedText(from: &frame, limit: length, record: index))
            case .replica:
                fields.append(field, .integer(try readReplica(from: &frame).rawValue))
            case .sinceTimestamp:
                fields.append(field, .integer(try bases.base(of: number, .sinceTimestamp) &+ frame.readSVarint()))
            case .stampTime:
                let time = try frame.readStampTime(base: try bases.base(of: number, .stampTime))
                bases.pass(number, value: time)
                fields.append(field, .integer(time))
            }
        }
        fields.newer = NewerFields(newer)
        return fields
    }

    /// A shared text: introduced or referred to in a payload; in a stored frame, a reference to
    /// the file's table or written out (`0`).
    private mutating func readSharedText(
        from frame: inout FrameBytes,
        limit: Int,
        record index: Int
    ) throws
        -> FieldValue
    {
        guard source != .payload else { return .text(try frame.readSharedText(limit: limit, table: &sharedTexts)) }
        let reference = try frame.readCount(limit: Int(Int32.max), "a shared text reference")
        if reference == 0 { return .text(try frame.readCompactText(limit: limit)) }
        if source == .storedUnresolved { return .integer(Int64(reference)) }
        guard reference <= sharedTexts.entries.count else {
            throw BundleError.malformedContent(
                "record \(index): shared text \(reference) is not in the file's table of \(sharedTexts.entries.count)"
            )
        }
        return .text(sharedTexts.entries[reference - 1])
    }

    /// A replica reference: the index of a replica in the table, or the next index followed by
    /// a new replica's id. A stored frame writes an id only when the file's table is full.
    package mutating func readReplica(from source: inout some PayloadSource) throws -> ReplicaID {
        switch self.source {
        case .payload: break
        case .stored: return try Self.storedReplica(from: &source, table: replicas)
        case .storedUnresolved: return try Self.storedReplica(from: &source, table: nil)
        }
        let index = try source.readCount(limit: replicas.count, "a replica reference")
        guard index == replicas.count else { return replicas[index] }
        guard replicas.count < Self.maxReplicas else {
            throw BundleError.malformedContent("more than \(Self.maxReplicas) replicas")
        }
        let replica = try Self.replica(try source.readID64())
        guard known.insert(replica).inserted else {
            throw BundleError.malformedContent("replica \(replica) is introduced twice")
        }
        replicas.append(replica)
        return replica
    }

    /// A stored frame's replica reference to the file's table `table` (`nil`: not at hand,
    /// read as a placeholder), or its id when the table was full.
    static func storedReplica(from source: inout some PayloadSource, table: [ReplicaID]?) throws -> ReplicaID {
        let index = try source.readCount(limit: maxReplicas, "a replica reference")
        if index == maxReplicas { return try replica(try source.readID64()) }
        guard let table else { return ReplicaID(rawValue: 0) }
        guard index < table.count else {
            throw BundleError.malformedContent("replica \(index) is not in the file's table of \(table.count)")
        }
        return table[index]
    }

    package static func replica(_ raw: UInt64) throws -> ReplicaID {
        guard raw <= UInt64(Int64.max) else { throw BundleError.malformedContent("a replica id has its top bit set") }
        return ReplicaID(rawValue: Int64(raw))
    }

    /// The next field's number and, from format 4, its wire type. Format 4 tags are
    /// `(number - last) << 3 | wire type`; earlier formats write the number alone and know
    /// only the table's fields.
    private func readTag(
        from frame: inout FrameBytes,
        after last: Int,
        record index: Int
    ) throws -> (
        number: Int, wire: WireType?
    ) {
        guard version >= 4 else {
            let number = try frame.readCount(limit: RecordField.lastInFormat3.number, "a field number")
            guard number > last else {
                throw BundleError.malformedContent("record \(index): field \(number) is out of order or unknown")
            }
            return (number, nil)
        }
        return try Self.readTag(from: &frame, after: last, record: index)
    }

    /// A format 4 tag: the next field's number and its wire type.
    static func readTag(
        from frame: inout FrameBytes,
        after last: Int,
        record index: Int
    ) throws -> (
        number: Int, wire: WireType
    ) {
        let tag = try frame.readUVarint()
        let step = tag >> 3
        guard step > 0, step <= UInt64(NewerFields.numbers.upperBound - last) else {
            throw BundleError.malformedContent(
                "record \(index): a tag steps \(step) from field \(last) (fields go up, to at most \(NewerFields.numbers.upperBound))"
            )
        }
        let number = last + Int(step)
        guard let wire = WireType(rawValue: UInt8(tag & 7)) else {
            throw BundleError.malformedContent(
                "record \(index): field \(number) has wire type \(tag & 7), which no format defines"
            )
        }
        return (number, wire)
    }

    /// A newer field's value, read by its wire type (bundle-format.md, "Newer fields").
    private mutating func readNewerValue(
        _ wire: WireType?,
        of number: Int,
        from frame: inout FrameBytes,
        length: Int,
        bases: FrameTimeBases,
        record index: Int
    ) throws -> NewerField.Value {
        func nonEmpty(_ text: String) throws -> String {
            guard !text.isEmpty else {
                throw BundleError.malformedContent(
                    "record \(index): field \(number) is empty (an absent field is left out)"
                )
            }
            return text
        }
        switch wire {
        case .varint: return .varint(try frame.readUVarint())
        case .stampTime:
            let time = try frame.readStampTime(base: try bases.base(of: number, .stampTime))
            guard (0...Stamp.latestTime).contains(time) else {
                throw BundleError.malformedContent(
                    "record \(index): field \(number)'s stamp time \(time) is not between 1970 and 3000"
                )
            }
            return .stampTime(time)
        case .text: return .text(try nonEmpty(try frame.readCompactText(limit: length)))
        case .sharedText:
            switch try readSharedText(from: &frame, limit: length, record: index) {
            case let .text(text): return .sharedText(try nonEmpty(text))
            // An unresolved reference (`storedUnresolved`): newer fields are not read there.
            case let .integer(reference): return .varint(UInt64(reference))
            }
        case .replica: return .replica(try readReplica(from: &frame))
        case .bytes: return .bytes(try frame.readBytes(try frame.readCount(limit: length, "a byte length")))
        case nil: preconditionFailure("formats before 4 have no newer fields")
        }
    }
}
