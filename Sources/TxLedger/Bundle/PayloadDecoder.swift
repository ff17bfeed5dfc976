/// Decodes a bundle payload, streaming: the header first, then one record per `next()`. It reads
/// format 4, as `PayloadEncoder` writes it, with the fields of newer versions (kept with the
/// record, `NewerFields`); formats 3 and 2, whose tags are plain field numbers of the table; and
/// format 1, whose frames write every text as it is and every time as an svarint
/// (`RecordFrameField.Kind.inFormat`). Everything is checked: canonical varints and texts,
/// field numbers in increasing order, wire types, replica and shared text references, each
/// frame's shape (`FrameShape`), and each record as the ledger validates input (its vault is
/// the header's). Any deviation is `BundleError.malformedContent`: nothing is repaired.
struct PayloadDecoder {
    /// Most entries a knowledge list or the replica table may have.
    private static let maxReplicas = 1 << 16
    /// Largest frame a reader accepts, in bytes: a message may hold 1 Mi characters of UTF-8.
    static let maxFrameBytes = 8 << 20

    let header: ChangeSetHeader
    /// Records decoded so far.
    private(set) var recordCount = 0
    private let version: UInt8
    private let reader: BundleReader
    private var source: StreamBytes
    private var sharedTexts = SharedTextTable()
    private var replicas: [ReplicaID]
    /// The replica table's entries, to refuse one introduced twice in constant time.
    private var known: Set<ReplicaID>

    /// Failures of the file itself come before those of its content (bundle-format.md,
    /// "Reading"): when decoding fails, every chunk left is still read and authenticated.
    init(_ reader: BundleReader) throws {
        do {
            try self.init(decoding: reader)
        } catch {
            throw try Self.fileFailureFirst(error, reader)
        }
    }

    /// The next record, or `nil` at the end of the payload.
    mutating func next() throws -> RecordState? {
        do {
            return try decodeNext()
        } catch {
            throw try Self.fileFailureFirst(error, reader)
        }
    }

    private static func fileFailureFirst(_ error: any Error, _ reader: BundleReader) throws -> any Error {
        if case BundleError.malformedContent = error { try reader.authenticateRest() }
        return error
    }

    private init(decoding reader: BundleReader) throws {
        self.reader = reader
        version = reader.header.version
        var source = StreamBytes(reader)
        let vault = try source.readText(limit: 1024)
        do {
            try TextField.identifier.validate(vault, field: "vault")
        } catch let error as LedgerError {
            throw BundleError.malformedContent(error.localizedDescription)
        }
        let origin = try Self.replica(try source.readID64())
        var replicas = [origin]
        var known: Set = [origin]
        let since = try Self.sequence(try source.readUVarint())
        let through = try Self.sequence(try source.readUVarint())
        let lineage = version >= 3 ? try Self.readLineage(from: &source) : nil
        var knowledge: [ReplicaID: Int64] = [:]
        var knowledgeEpochs: [ReplicaID: EpochID] = [:]
        var previous: ReplicaID?
        for _ in 0..<(try source.readCount(limit: Self.maxReplicas, "the knowledge count")) {
            let replica = try Self.readReplica(from: &source, table: &replicas, known: &known)
            guard previous.map({ $0 < replica }) ?? true else {
                throw BundleError.malformedContent("the knowledge list is not in increasing replica order")
            }
            knowledge[replica] = try Self.sequence(try source.readUVarint())
            if version >= 3, let epoch = try Self.epoch(try source.readID64(), allowingNone: true) {
                knowledgeEpochs[replica] = epoch
            }
            previous = replica
        }
        var watermark: Stamp?
        switch try source.readUVarint() {
        case 0: break
        case 1:
            let time = try source.readSVarint()
            let replica = try Self.readReplica(from: &source, table: &replicas, known: &known)
            do {
                watermark = try Stamp.received(time: time, replica: replica, field: "clear watermark")
            } catch let error as LedgerError {
                throw BundleError.malformedContent(error.localizedDescription)
            }
        case let flag: throw BundleError.malformedContent("the watermark flag is \(flag)")
        }
        guard since <= through else {
            throw BundleError.malformedContent("it starts after its end (since \(since) > through \(through))")
        }
        header = ChangeSetHeader(
            vaultId: vault,
            origin: origin,
            since: since,
            through: through,
            knowledge: knowledge,
            knowledgeEpochs: knowledgeEpochs,
            lineage: lineage,
            clearedThrough: watermark
        )
        self.source = source
        self.replicas = replicas
        self.known = known
    }

    private mutating func decodeNext() throws -> RecordState? {
        guard try !source.isAtEnd() else { return nil }
        let length = try source.readCount(limit: Self.maxFrameBytes, "a frame length")
        var frame = FrameBytes(try source.readBytes(length))
        var fields = RecordFields(vault: header.vaultId)
        var last = 0
        var bases = FrameTimeBases()
        var newer: [NewerField] = []
        while !frame.isAtEnd {
            let (number, wire) = try readTag(from: &frame, after: last)
            last = number
            guard let field = RecordField(number: number) else {
                newer.append(
                    NewerField(
                        number: number,
                        value: try readNewerValue(wire, of: number, from: &frame, length: length, bases: bases)
                    )
                )
                continue
            }
            let encoding = field.encoding.inFormat(version)
            if let wire, wire != encoding.wireType {
                throw BundleError.malformedContent(
                    "record \(recordCount): field \(number) (\(field.name)) has wire type \(wire.rawValue), not \(encoding.wireType.rawValue)"
                )
            }
            switch encoding {
            case .integer:
                let integer = try frame.readSVarint()
                bases.pass(number, value: integer)
                fields[field] = .integer(integer)
            case .plainText: fields[field] = .text(try frame.readText(limit: length))
            case .text: fields[field] = .text(try frame.readCompactText(limit: length))
            case .sharedText: fields[field] = .text(try frame.readSharedText(limit: length, table: &sharedTexts))
            case .replica:
                fields[field] = .integer(try Self.readReplica(from: &frame, table: &replicas, known: &known).rawValue)
            case .sinceTimestamp:
                fields[field] = .integer(try bases.base(of: number, .sinceTimestamp) &+ frame.readSVarint())
            case .stampTime:
                let time = try frame.readStampTime(base: try bases.base(of: number, .stampTime))
                bases.pass(number, value: time)
                fields[field] = .integer(time)
            }
        }
        fields.newer = NewerFields(newer)
        try FrameShape.check(fields, record: recordCount)
        let record: RecordState
        do {
            record = try RecordState(fields: fields)
        } catch let error as LedgerError {
            throw BundleError.malformedContent("record \(recordCount): \(error.localizedDescription)")
        }
        try FrameShape.checkExplorerURL(sent: fields[.explorerUrl] != nil, of: record, record: recordCount)
        recordCount += 1
        return record
    }

    /// The next field's number and, from format 4, its wire type. Format 4 tags are
    /// `(number - last) << 3 | wire type`; earlier formats write the number alone and know
    /// only the table's fields.
    private func readTag(from frame: inout FrameBytes, after last: Int) throws -> (number: Int, wire: WireType?) {
        guard version >= 4 else {
            let number = try frame.readCount(limit: RecordField.last, "a field number")
            guard number > last else {
                throw BundleError.malformedContent("record \(recordCount): field \(number) is out of order or unknown")
            }
            return (number, nil)
        }
        let tag = try frame.readUVarint()
        let step = tag >> 3
        guard step > 0, step <= UInt64(NewerFields.numbers.upperBound - last) else {
            throw BundleError.malformedContent(
                "record \(recordCount): a tag steps \(step) from field \(last) (fields go up, to at most \(NewerFields.numbers.upperBound))"
            )
        }
        let number = last + Int(step)
        guard let wire = WireType(rawValue: UInt8(tag & 7)) else {
            throw BundleError.malformedContent(
                "record \(recordCount): field \(number) has wire type \(tag & 7), which no format defines"
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
        bases: FrameTimeBases
    ) throws -> NewerField.Value {
        func nonEmpty(_ text: String) throws -> String {
            guard !text.isEmpty else {
                throw BundleError.malformedContent(
                    "record \(recordCount): field \(number) is empty (an absent field is left out)"
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
                    "record \(recordCount): field \(number)'s stamp time \(time) is not between 1970 and 3000"
                )
            }
            return .stampTime(time)
        case .text: return .text(try nonEmpty(try frame.readCompactText(limit: length)))
        case .sharedText: return .sharedText(try nonEmpty(try frame.readSharedText(limit: length, table: &sharedTexts)))
        case .replica: return .replica(try Self.readReplica(from: &frame, table: &replicas, known: &known))
        case .bytes: return .bytes(try frame.readBytes(try frame.readCount(limit: length, "a byte length")))
        case nil: preconditionFailure("formats before 4 have no newer fields")
        }
    }

    private static func readReplica(
        from source: inout some PayloadSource,
        table: inout [ReplicaID],
        known: inout Set<ReplicaID>
    ) throws -> ReplicaID {
        let index = try source.readCount(limit: table.count, "a replica reference")
        guard index == table.count else { return table[index] }
        guard table.count < maxReplicas else { throw BundleError.malformedContent("more than \(maxReplicas) replicas") }
        let replica = try replica(try source.readID64())
        guard known.insert(replica).inserted else {
            throw BundleError.malformedContent("replica \(replica) is introduced twice")
        }
        table.append(replica)
        return replica
    }

    /// Format 3's epochs: a count, then each epoch's id and first change, in increasing order.
    private static func readLineage(from source: inout StreamBytes) throws -> [Epoch] {
        var lineage: [Epoch] = []
        for _ in 0..<(try source.readCount(limit: ChangeSetHeader.maxEpochs, "the epoch count")) {
            guard let id = try epoch(try source.readID64(), allowingNone: false) else {
                preconditionFailure("epoch 0 was refused")
            }
            let first = try sequence(try source.readUVarint())
            guard first > (lineage.last?.firstSeq ?? 0) else {
                throw BundleError.malformedContent("the epochs are not in increasing order of their first change")
            }
            lineage.append(Epoch(id: id, firstSeq: first))
        }
        return lineage
    }

    private static func epoch(_ raw: UInt64, allowingNone: Bool) throws -> EpochID? {
        guard raw <= UInt64(Int64.max) else { throw BundleError.malformedContent("an epoch id has its top bit set") }
        guard raw > 0 else {
            guard allowingNone else { throw BundleError.malformedContent("an epoch id is 0") }
            return nil
        }
        return EpochID(rawValue: Int64(raw))
    }

    private static func replica(_ raw: UInt64) throws -> ReplicaID {
        guard raw <= UInt64(Int64.max) else { throw BundleError.malformedContent("a replica id has its top bit set") }
        return ReplicaID(rawValue: Int64(raw))
    }

    private static func sequence(_ raw: UInt64) throws -> Int64 {
        guard raw <= UInt64(Int64.max) else {
            throw BundleError.malformedContent("a change sequence number exceeds 2^63 - 1")
        }
        return Int64(raw)
    }
}
