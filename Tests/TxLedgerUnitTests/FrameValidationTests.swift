import Foundation
import Testing

@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// A payload's frames are read in turn and validated together on several threads
/// (`PayloadDecoder`, `FrameValidation`): its records come as reading one at a time gives
/// them, and its first failure in payload order is the one reported, a failure of the file
/// before one of its content (Specs/bundle-format.md, "Reading").
struct FrameValidationTests {
    private static let stamp = Stamp(time: 1_700_000_000_000 << 16, replica: ReplicaID(rawValue: 0x77))
    /// Three groups of frames read together, the last one short.
    private static let count = 2 * PayloadDecoder.validatedTogether + 100

    /// A sealed payload of `count` sends: those at `invalid` with an amount that is no decimal,
    /// and after the frame at `garbled - 1` one that does not decode (a tag that steps 0).
    private static func sealed(
        invalid: Set<Int> = [],
        garbled: Int? = nil,
        in folder: TemporaryDirectory,
        secret: BundleSecret
    ) async throws -> (path: String, states: [RecordState], ends: [Int]) {
        var payload = PayloadEncoder()
        payload.encode(BundleFixture.header)
        var states: [RecordState] = []
        var ends: [Int] = []
        for index in 0..<count {
            if index == garbled { payload.bytes += [2, 0, 0] }
            let state = RecordState(recording: try Fixture.send(hash: index + 1, labels: []), stamp: stamp)
            if invalid.contains(index) {
                var fields = state.fields
                fields[.amount] = .text("12x")
                fields[.explorerUrl] = nil  // the chain's default page, which a writer leaves out
                payload.encodeFrame(fields)
            } else {
                payload.encode(state)
            }
            states.append(state)
            ends.append(payload.bytes.count)
        }
        return (try await BundleFixture.seal(payload.bytes, with: secret, in: folder), states, ends)
    }

    /// The records of the bundle at `path`, read to its end or to its first failure.
    private static func read(
        _ path: String,
        secret: BundleSecret
    ) async throws -> (records: [ReceivedRecord], failure: (any Error)?) {
        try await DedicatedThread.run {
            var decoder = try PayloadDecoder(BundleReader(path: path, secret: secret))
            var records: [ReceivedRecord] = []
            do {
                while let record = try decoder.nextReceived() { records.append(record) }
                return (records, nil)
            } catch {
                return (records, error)
            }
        }
    }

    /// Whether each record read is the state encoded at its place (compared without printing
    /// a thousand records when they are not).
    private static func same(_ records: [ReceivedRecord], _ states: [RecordState]) -> Bool {
        zip(records, states).allSatisfy { $0.state == $1 }
    }

    @Test func aPayloadReadsAsItsFramesOneAtATime() async throws {
        let folder = try TemporaryDirectory()
        let secret = BundleSecret.syncKey(.generate())
        let (path, states, _) = try await Self.sealed(in: folder, secret: secret)
        let (records, failure) = try await Self.read(path, secret: secret)
        #expect(failure == nil)
        try #require(records.count == states.count)
        #expect(Self.same(records, states))
        // Each as one frame decoder reads it alone: the same state, the frame kept alike.
        var frames = FrameEncoder(origin: ReplicaID(rawValue: 7))
        var decoder = FrameDecoder(version: FrameDecoder.currentVersion, origin: ReplicaID(rawValue: 7))
        for (index, state) in states.enumerated() {
            let alone = try decoder.receivedRecord(frames.frame(state), vault: "vault-1", index: index)
            #expect(alone.state == records[index].state)
            #expect((alone.frame == nil) == (records[index].frame == nil))
        }
    }

    /// Each record read comes with the bytes of its frame (`lastFrameBytes`), by which an
    /// import counts the records it holds: its frame's share of the payload, less the length
    /// that precedes it.
    @Test func eachRecordComesWithItsFrameBytes() async throws {
        let folder = try TemporaryDirectory()
        let secret = BundleSecret.syncKey(.generate())
        let (path, _, ends) = try await Self.sealed(in: folder, secret: secret)
        var header = PayloadEncoder()
        header.encode(BundleFixture.header)
        let lengths = try await DedicatedThread.run {
            var decoder = try PayloadDecoder(BundleReader(path: path, secret: secret))
            var lengths: [Int] = []
            while try decoder.nextReceived() != nil { lengths.append(decoder.lastFrameBytes) }
            return lengths
        }
        try #require(lengths.count == ends.count)
        let starts = [header.bytes.count] + ends.dropLast()
        for (index, length) in lengths.enumerated() {
            let prefix = (Int.bitWidth - length.leadingZeroBitCount + 6) / 7
            #expect(prefix + length == ends[index] - starts[index], "record \(index)")
        }
    }

    /// Invalid records in one part of a group, in two parts of one group, in two groups.
    @Test(arguments: [[40], [40, 300], [300, 40 + PayloadDecoder.validatedTogether], [count - 1]])
    func theFirstInvalidRecordIsReportedAfterTheRecordsBeforeIt(invalid: [Int]) async throws {
        let folder = try TemporaryDirectory()
        let secret = BundleSecret.syncKey(.generate())
        let (path, states, _) = try await Self.sealed(invalid: Set(invalid), in: folder, secret: secret)
        let (records, failure) = try await Self.read(path, secret: secret)
        let first = try #require(invalid.min())
        #expect(records.count == first)
        #expect(Self.same(records, states))
        let error = try #require(failure as? BundleError)
        #expect(error.code == .malformedContent)
        #expect(error.localizedDescription.contains("record \(first): invalid amount"), "\(error)")
    }

    /// A frame that does not decode, after an invalid record read in the same group, and before.
    @Test func aFailureOfAFrameCountsInPayloadOrder() async throws {
        let folder = try TemporaryDirectory()
        let secret = BundleSecret.syncKey(.generate())
        let cases = [(550, 600, "record 550: invalid amount"), (600, 550, "record 550: a tag")]
        for (invalid, garbled, reported) in cases {
            let (path, states, _) = try await Self.sealed(
                invalid: [invalid],
                garbled: garbled,
                in: folder,
                secret: secret
            )
            let (records, failure) = try await Self.read(path, secret: secret)
            #expect(records.count == 550)
            #expect(Self.same(records, states))
            let error = try #require(failure as? BundleError)
            #expect(error.localizedDescription.contains(reported), "\(error)")
        }
    }

    /// Large frames are read ahead up to `aheadBytes` a group, not 512 of them, and at most two
    /// groups at a time (the one served and the next, read while it validated): a payload of
    /// 1 MiB messages holds about sixteen at a time.
    @Test func largeFramesAreReadAheadByTheirBytes() async throws {
        let folder = try TemporaryDirectory()
        let secret = BundleSecret.syncKey(.generate())
        var payload = PayloadEncoder()
        payload.encode(BundleFixture.header)
        let count = 20
        let messages = (0..<count).map { "\($0) " + String(repeating: "a", count: 1 << 20 - 8) }
        for message in messages {
            payload.encode(RecordState(recording: try Fixture.signature(message: message), stamp: Self.stamp))
        }
        let path = try await BundleFixture.seal(payload.bytes, with: secret, in: folder)
        let (first, ahead, rest) = try await DedicatedThread.run {
            var decoder = try PayloadDecoder(BundleReader(path: path, secret: secret))
            let first = try decoder.next()
            let ahead = decoder.recordsAhead
            var rest = 0
            while try decoder.next() != nil { rest += 1 }
            return (first, ahead, rest)
        }
        guard case let .signature(signature)? = first?.facts.value.details else {
            Issue.record("the first record is the first signature")
            return
        }
        #expect(signature.message == messages[0])
        #expect(ahead == 2 * PayloadDecoder.aheadBytes / (1 << 20) - 1)
        #expect(rest == count - 1)
    }

    /// An invalid record in the chunk before the last, in a group that reading ahead took into
    /// the damaged end of the file: the damage is reported, as reading one record at
    /// a time would report it (the reader throws its failure again).
    @Test func aDamagedEndReadAheadIsReportedBeforeAnInvalidRecord() async throws {
        let folder = try TemporaryDirectory()
        let secret = BundleSecret.syncKey(.generate())
        let (_, _, ends) = try await Self.sealed(in: folder, secret: secret)
        let lastChunkStart = (ends[ends.count - 1] - 1) / BundleWriter.chunkSize * BundleWriter.chunkSize
        let invalid = try #require(ends.lastIndex { $0 <= lastChunkStart })
        // The frame after it, in the last chunk, is read in the same group.
        try #require(invalid % PayloadDecoder.validatedTogether != PayloadDecoder.validatedTogether - 1)
        let (path, _, _) = try await Self.sealed(invalid: [invalid], in: folder, secret: secret)
        let sealed = try Data(contentsOf: URL(fileURLWithPath: path))
        try sealed.dropLast().write(to: URL(fileURLWithPath: path))
        let (records, failure) = try await Self.read(path, secret: secret)
        #expect(records.count == invalid)
        #expect(failure as? BundleError == .payloadTampered(chunk: lastChunkStart / BundleWriter.chunkSize))
    }
}
