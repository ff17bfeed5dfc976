import TxLedgerCore
import TxLedgerMembership

/// Decodes a bundle payload, streaming: the header first (in format 5 with its device section),
/// then one record per `next()`. It reads formats 5 and 4, as `PayloadEncoder` writes them, with the fields of newer versions (kept with the
/// record, `NewerFields`); formats 3 and 2, whose tags are plain field numbers of the table; and
/// format 1, whose frames write every text as it is and every time as an svarint
/// (`FieldEncoding.inFormat`). Everything is checked: canonical varints and texts,
/// field numbers in increasing order, wire types, replica and shared text references, each
/// frame's shape (`FrameShape`), and each record as the ledger validates input (its vault is
/// the header's). Any deviation is `BundleError.malformedContent`: nothing is repaired.
///
/// Frames are read in turn, `validatedTogether` at a time (fewer when they hold more than
/// `aheadBytes`), and their records then validated at once on every core (`FrameValidation`)
/// on other threads (`FrameValidationJob`) while the next group's frames are read; the records
/// come out one by one, in order, and the first failure in payload order is the one thrown, a
/// failure of the file first.
package struct PayloadDecoder {

    package let header: ChangeSetHeader
    /// Format 5: the author, the vault's first recovery identity and the membership log.
    package let devices: DeviceSection?
    /// Records returned so far (`next`, `nextReceived`, `nextWrittenFields`).
    package private(set) var recordCount = 0
    private let reader: BundleReader
    private var source: StreamBytes
    /// The frames' decoder, whose replica table the header starts.
    private var frames: FrameDecoder
    /// Records read and validated ahead (`readAhead`), served in order from `served`; then the
    /// error that ended them, if one did.
    private var ahead = FrameValidation()
    /// The byte length of each frame read ahead.
    private var aheadLengths: [Int] = []
    private var served = 0
    /// The next group of frames, read while `ahead`'s were validated and served, and being
    /// validated; `nil` before the first group and once reading has ended.
    private var following: FramesRead?
    /// Frames read so far: the number of the next one in its payload.
    private var framesRead = 0
    /// The byte length of the frame of the record returned last: what a consumer that holds
    /// records counts them by (`ProducerThread`'s batches, a merge's).
    package private(set) var lastFrameBytes = 0
    private var aheadFailure: (any Error)?

    /// Frames read in turn, then validated at once (`FrameValidation`).
    static let validatedTogether = FrameDecoder.maxSpareFields
    /// Bytes of frames read ahead at most (the frame that passes it included): one largest
    /// frame's worth, so that reading ahead holds about what reading one frame could, not 512
    /// frames of up to 8 MiB each.
    static let aheadBytes = FrameDecoder.maxFrameBytes

    /// Records read but not yet returned: validated, or read while those were served.
    var recordsAhead: Int { ahead.records.count - served + (following?.job.count ?? 0) }

    /// A group of frames read in turn and their validation, started at once; the byte length
    /// of each frame; and the failure that ended reading after them, if one did.
    private struct FramesRead {
        let job: FrameValidationJob
        let lengths: [Int]
        let failure: (any Error)?
        /// Whether no frame follows: the payload ended, or reading failed.
        let endsReading: Bool
    }

    /// Failures of the file itself come before those of its content (bundle-format.md,
    /// "Reading"): when decoding fails, every chunk left is still read and authenticated.
    package init(_ reader: BundleReader) throws {
        do {
            try self.init(decoding: reader)
        } catch {
            throw try Self.fileFailureFirst(error, reader)
        }
    }

    /// The next record, or `nil` at the end of the payload.
    package mutating func next() throws -> RecordState? {
        guard let (state, _) = try nextReceived() else { return nil }
        return state
    }

    /// The next record and its frame as a store may keep it (`FrameDecoder.receivedRecord`), or
    /// `nil` at the end of the payload.
    package mutating func nextReceived() throws -> ReceivedRecord? {
        do {
            return try decodeNext()
        } catch {
            throw try Self.fileFailureFirst(error, reader)
        }
    }

    private static func fileFailureFirst(_ error: any Error, _ reader: BundleReader) throws -> any Error {
        if (error as? BundleError)?.code == .malformedContent { try reader.authenticateRest() }
        return error
    }

    private init(decoding reader: BundleReader) throws {
        self.reader = reader
        let version = reader.header.version
        var source = StreamBytes(reader)
        let vault = try Self.readVault(from: &source)
        let origin = try FrameDecoder.replica(try source.readID64())
        var frames = FrameDecoder(version: version, origin: origin)
        let since = try Self.sequence(try source.readUVarint())
        let through = try Self.sequence(try source.readUVarint())
        let lineage = version >= 3 ? try Self.readLineage(from: &source, since: since, through: through) : nil
        var knowledge: [ReplicaID: Int64] = [:]
        var knowledgeEpochs: [ReplicaID: EpochID] = [:]
        var previous: ReplicaID?
        for _ in 0..<(try source.readCount(limit: FrameDecoder.maxReplicas, "the knowledge count")) {
            let replica = try frames.readReplica(from: &source)
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
            let replica = try frames.readReplica(from: &source)
            do {
                watermark = try Stamp.received(time: time, replica: replica, field: "clear watermark")
            } catch let error as LedgerError {
                throw BundleError.malformedContent(error.localizedDescription, underlying: error)
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
        devices = reader.header.mode == .deviceKeys ? try DeviceSection(reading: &source, vault: vault) : nil
        self.source = source
        self.frames = frames
    }

    /// A payload's vault id (a `text`), checked as the ledger checks one.
    static func readVault(from source: inout StreamBytes) throws -> String {
        let vault = try source.readText(limit: 1024)
        do {
            try TextField.identifier.validate(vault, field: "vault")
        } catch let error as LedgerError {
            throw BundleError.malformedContent(error.localizedDescription, underlying: error)
        }
        return vault
    }

    private mutating func decodeNext() throws -> ReceivedRecord? {
        if served == ahead.records.count, aheadFailure == nil { readAhead() }
        guard served < ahead.records.count else {
            if let aheadFailure { throw aheadFailure }
            return nil
        }
        // Every record before the first failure validated.
        let received = ahead.records[served].take()!
        lastFrameBytes = aheadLengths[served]
        served += 1
        recordCount += 1
        return received
    }

    /// Serves the next group of frames read (`readFrames`), once validated, and reads the one
    /// after it meanwhile (unless reading has ended). The records before the first failure are
    /// served; then the failure: a record's, else the one that ended reading (a frame's, or the
    /// file's). That is the order reading and validating each frame in turn gives; a failure of
    /// the file after a record that failed is still reported first (`fileFailureFirst`: the
    /// reader throws it again).
    private mutating func readAhead() {
        let current = following ?? readFrames()
        following = current.endsReading ? nil : readFrames()
        var (validation, decoded) = current.job.wait()
        ahead = validation
        aheadLengths = current.lengths
        served = 0
        aheadFailure = current.failure
        if let invalid = ahead.failure {
            ahead.records.removeSubrange(invalid.position...)
            aheadFailure = invalid.error
        }
        while let frame = decoded.popLast() { frames.recycle(frame.fields) }
    }

    /// Reads up to `validatedTogether` frames in turn, stopping once they hold `aheadBytes`, and
    /// starts their validation.
    private mutating func readFrames() -> FramesRead {
        var decoded: [DecodedFrame] = []
        decoded.reserveCapacity(Self.validatedTogether)
        var lengths: [Int] = []
        lengths.reserveCapacity(Self.validatedTogether)
        var failure: (any Error)?
        var ended = false
        var bytes = 0
        do {
            while decoded.count < Self.validatedTogether, bytes < Self.aheadBytes {
                guard let frame = try nextFrame() else {
                    ended = true
                    break
                }
                bytes += frame.count
                lengths.append(frame.count)
                decoded.append(try frames.read(frame, vault: header.vaultId, index: framesRead))
                framesRead += 1
            }
        } catch {
            failure = error
        }
        return FramesRead(
            job: FrameValidationJob(decoded),
            lengths: lengths,
            failure: failure,
            endsReading: ended || failure != nil
        )
    }

    /// The next record's fields as its frame writes them, before its values are checked and
    /// brought to their canonical forms (`CanonicalFormTests`), or `nil` at the end of the
    /// payload.
    package mutating func nextWrittenFields() throws -> RecordFields? {
        precondition(ahead.records.isEmpty, "a payload is read either as records or as fields")
        do {
            guard let frame = try nextFrame() else { return nil }
            let fields = try frames.fields(frame, vault: header.vaultId, index: recordCount)
            recordCount += 1
            return fields
        } catch {
            throw try Self.fileFailureFirst(error, reader)
        }
    }

    private mutating func nextFrame() throws -> [UInt8]? {
        guard try !source.isAtEnd() else { return nil }
        return try source.readBytes(try source.readCount(limit: FrameDecoder.maxFrameBytes, "a frame length"))
    }

    /// Format 3's epochs: a count, then each epoch's id and first change, in increasing order
    /// from 1, each id once; none when `through` is 0; else, when there are any, the first holds
    /// `since` (`through` for a full change set, which lists one) and the last starts at or
    /// before `through` (bundle-format.md, "Change set header").
    private static func readLineage(from source: inout StreamBytes, since: Int64, through: Int64) throws -> [Epoch] {
        var lineage: [Epoch] = []
        var ids: Set<EpochID> = []
        for _ in 0..<(try source.readCount(limit: ChangeSetHeader.maxEpochs, "the epoch count")) {
            guard let id = try epoch(try source.readID64(), allowingNone: false) else {
                preconditionFailure("epoch 0 was refused")
            }
            let first = try sequence(try source.readUVarint())
            guard first > (lineage.last?.firstSeq ?? 0) else {
                throw BundleError.malformedContent(
                    "the epochs are not in increasing order of their first change from 1"
                )
            }
            guard ids.insert(id).inserted else { throw BundleError.malformedContent("an epoch is listed twice") }
            lineage.append(Epoch(id: id, firstSeq: first))
        }
        guard let last = lineage.last else { return lineage }
        let held = since > 0 ? since : through
        guard through > 0 else { throw BundleError.malformedContent("a change set of no change lists epochs") }
        guard since > 0 || lineage.count == 1 else {
            throw BundleError.malformedContent("a full change set lists more than the epoch of its last change")
        }
        guard lineage[0].firstSeq <= held, lineage.count == 1 || lineage[1].firstSeq > held, last.firstSeq <= through
        else {
            throw BundleError.malformedContent(
                "its epochs do not run from the one holding its start to the one holding its end"
            )
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

    private static func sequence(_ raw: UInt64) throws -> Int64 {
        guard raw <= UInt64(Int64.max) else {
            throw BundleError.malformedContent("a change sequence number exceeds 2^63 - 1")
        }
        return Int64(raw)
    }
}
