import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerReplication
@testable import TxLedgerTestSupport

/// Whether a full change set held everything its reader held (Specs/folder-sync.md, "Adopting
/// another device's full file") is proved by the merge, record by record: a file that leaves
/// out a record, holds an older state of one, names one twice, or is behind the reader's
/// watermark does not cover it, whatever it says of itself.
@Suite struct FullCoverageTests {
    let folder: TemporaryDirectory
    let reader: TestLedger
    let secret = BundleSecret.syncKey(.generate())
    /// The reader's records, in id order, as it holds them.
    let held: [RecordState]
    static let writer = ReplicaID(rawValue: 7)

    init() async throws {
        (folder, reader) = (try TemporaryDirectory(), try await TestLedger())
        try await reader.ledger.record(try (1...4).map { try Fixture.minimalSend(hash: $0) })
        held = try await reader.ledger.changes(vault: "vault-1").records.sorted { $0.id < $1.id }
    }

    /// Imports a full change set of `records` (in the order given) written by another replica.
    func coverage(
        _ records: [RecordState],
        clearedThrough: Stamp? = nil,
        since: Int64 = 0,
        after point: Int64? = nil
    ) async throws
        -> FullCoverage?
    {
        var encoder = PayloadEncoder()
        encoder.encode(
            ChangeSetHeader(
                vaultId: "vault-1",
                origin: Self.writer,
                since: since,
                through: since + 1,
                knowledge: [:],
                clearedThrough: clearedThrough
            )
        )
        for record in records { encoder.encode(record) }
        let path = try await BundleFixture.seal(encoder.bytes, with: secret, in: folder)
        let imported = try await reader.ledger.database.importBundle(
            at: path,
            credentials: BundleCredentials(device: nil, secret: secret),
            folder: FolderRead(points: point.map { ["vault-1": $0] } ?? [:]),
            admitting: { _ in true }
        )
        return try #require(imported).coverage
    }

    /// Another record, written elsewhere.
    func other(_ hash: Int) async throws -> RecordState {
        try await state(of: try Fixture.minimalSend(hash: hash))
    }

    @Test func aFileHoldingExactlyWhatIsHeldCoversItAndHoldsNothingMore() async throws {
        let covered = try #require(try await coverage(held))
        #expect(!covered.holdsMore && covered.membership == nil)
    }

    @Test func aFileHoldingMoreCoversAndSaysSo() async throws {
        let more = (held + [try await other(100)]).sorted { $0.id < $1.id }
        #expect(try await coverage(more)?.holdsMore == true)
    }

    @Test func aFileWithoutOneRecordDoesNotCover() async throws {
        #expect(try await coverage(Array(held.dropLast())) == nil)
        // Nor with another record in its place: the count is of the reader's records.
        let swapped = (held.dropLast() + [try await other(100)]).sorted { $0.id < $1.id }
        #expect(try await coverage(swapped) == nil)
    }

    @Test func aFileNamingARecordTwiceInPlaceOfAnotherDoesNotCover() async throws {
        var twice = held
        twice[2] = twice[1]
        #expect(try await coverage(twice) == nil)
        #expect(try await coverage(held.reversed()) == nil, "ids must come in increasing order")
    }

    /// Writers write a change set in history order (timestamp, then id): such a file covers
    /// as one in id order does.
    @Test func aFileInHistoryOrderCovers() async throws {
        let earlier = Fixture.start.addingTimeInterval(-1)
        // An earlier record whose id is above the first held one's: out of id order.
        let hash = try #require((100..<200).first { try Fixture.minimalSend(hash: $0).id > held[0].id })
        let inHistoryOrder = [try await state(of: try Fixture.minimalSend(hash: hash, at: earlier))] + held
        #expect(try await coverage(inHistoryOrder)?.holdsMore == true)
    }

    /// A file in history order may name a record twice, at two timestamps; only the copy with
    /// the held timestamp counts, so it does not cover in place of another record.
    @Test func aFileInHistoryOrderNamingARecordTwiceAtTwoTimesCountsItOnce() async throws {
        let again = try #require((1...4).first { try Fixture.minimalSend(hash: $0).id == held[3].id })
        let later = try await state(
            of: try Fixture.minimalSend(hash: again, at: Fixture.start.addingTimeInterval(1)),
            later: 60
        )
        // held[2] left out: held[3] named again (at a later time) does not make up for it.
        #expect(try await coverage([held[0], held[1], held[3], later]) == nil)
        // Every record named, one twice: it covers (the later copy, now held, is the one counted).
        #expect(try await coverage(Array(held.prefix(3)) + [held[3], later]) != nil)
    }

    /// `record` as another replica holds it once recorded, `later` seconds after the reader's
    /// records were (so that its facts win a join with theirs).
    func state(of record: TransactionRecord, later: TimeInterval = 0) async throws -> RecordState {
        let elsewhere = try await TestLedger()
        elsewhere.clock.advance(by: later)
        try await elsewhere.ledger.record(record)
        return try #require(try await elsewhere.ledger.state(record.id))
    }

    @Test func aFileWithAnOlderStateOfARecordDoesNotCover() async throws {
        reader.clock.advance(by: 1)
        try await reader.ledger.setNote("newer here", for: held[0].id)
        #expect(try await coverage(held) == nil)
        // The file that holds the note covers.
        let now = try await reader.ledger.changes(vault: "vault-1").records.sorted { $0.id < $1.id }
        #expect(try await coverage(now) != nil)
    }

    @Test func aDeltaNeverCovers() async throws {
        #expect(try await coverage(held, since: 5) == nil)
    }

    @Test func aFileBehindTheReadersWatermarkDoesNotCover() async throws {
        // A watermark (an older version's clear) before every record: it clears nothing here.
        let watermark = Stamp(millis: 1, replica: Self.writer)
        #expect(try await coverage(held, clearedThrough: watermark) != nil)
        #expect(try await coverage(held, clearedThrough: nil) == nil)
        #expect(try await coverage(held, clearedThrough: watermark) != nil)
    }

    /// Given the change number of the reader's last file, a file covers it when it holds every
    /// record the reader has not changed after that number: the reader's later changes go in
    /// its next delta. A record held up to that number and missing still fails it.
    @Test func aFileHoldingEverythingUpToTheReadersLastFileCoversAfterIt() async throws {
        let point = try await reader.ledger.changes(vault: "vault-1").header.through
        reader.clock.advance(by: 1)
        try await reader.ledger.record(try Fixture.minimalSend(hash: 5))
        try await reader.ledger.setNote("changed after", for: held[0].id)
        #expect(try await coverage(held) == nil)
        let covered = try #require(try await coverage(held, after: point))
        #expect(covered.through == point)
        #expect(try await coverage(Array(held.dropLast()), after: point) == nil)
        // A file that holds everything still covers at the merge's own change number.
        let now = try await reader.ledger.changes(vault: "vault-1").records.sorted { $0.id < $1.id }
        #expect(try #require(try await coverage(now, after: point)).through > point)
        // One that covers only after the point never holds "more", even when it brings a record:
        // its writer may find this reader's full file covering it the same way.
        let more = (held + [try await other(100)]).sorted { $0.id < $1.id }
        let relaxed = try #require(try await coverage(more, after: point))
        #expect(relaxed.through == point && !relaxed.holdsMore)
    }
}
