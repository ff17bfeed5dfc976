import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerReplication
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

/// The load of a full change set into a vault that holds nothing (`BlockLoad`): its settled
/// records go to blocks, the rest to rows, and the history read back is the sender's, whatever
/// order the change set came in and even if it names a record twice. The vault holds two
/// batches of a merge and more (a batch's records are joined before they are written): about
/// two thirds of the records made.
struct BlockLoadTests {
    let source: TestLedger
    let full: ChangeSet

    init() async throws {
        source = try await TestLedger()
        try await source.ledger.record(try HistoryFixture.records(count: 3 * LedgerTransaction.mergeBatch.count + 200))
        full = try await source.ledger.changes(vault: "main")
    }

    /// How many records of `vault` in `ledger` may be kept in a block (`RecordBlock.holds`).
    private func settled(_ ledger: Ledger, vault: String = "main") async throws -> Int {
        try await ledger.database.pool.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM record JOIN vault ON vault.num = record.vault
                    WHERE vault.id = ? AND status IN (2, 3) AND erased = 0 AND disputed = 0 AND replaced IS NULL
                    """,
                arguments: [vault]
            ) ?? -1
        }
    }

    private func inBlocks(_ ledger: Ledger) async throws -> Int {
        try await ledger.database.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record_cold") ?? -1
        }
    }

    private func main(_ ledger: Ledger) async throws -> [TransactionRecord] {
        try await ledger.list(HistoryFilter(vault: "main", includeHidden: true), limit: Int.max).items
    }

    @Test func aFullChangeSetIntoAnEmptyVaultKeepsItsSettledRecordsInBlocks() async throws {
        let device = try await TestLedger()
        let report = try await device.ledger.merge(full)
        #expect(report.recordsAdded == full.recordCount)
        let expected = try await settled(source.ledger)
        #expect(expected > 10)
        #expect(try await inBlocks(device.ledger) == expected)
        #expect(try await main(device.ledger) == main(source.ledger))
        #expect(
            try await device.ledger.changes(vault: "main").records.sorted { $0.id < $1.id }
                == full.records.sorted { $0.id < $1.id }
        )
        // The load's smaller page cache is given back to the connection that writes.
        let cache = try await device.ledger.database.pool.write { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") }
        #expect(cache == -LedgerDatabase.cacheKiB)
        // Merged again: nothing changes, and the blocks stay.
        let again = try await device.ledger.merge(full)
        #expect(again.recordsAdded == 0 && again.recordsChanged == 0)
        #expect(try await inBlocks(device.ledger) == expected)
    }

    /// A change set in id order (an older writer's): what comes in history order goes to
    /// blocks, the rest to rows, and the history is the same.
    @Test func aChangeSetInIdOrderIsLoadedAsWell() async throws {
        let device = try await TestLedger()
        _ = try await device.ledger.merge(
            ChangeSet(header: full.header, records: full.records.sorted { $0.id < $1.id })
        )
        #expect(try await inBlocks(device.ledger) > 0)
        #expect(try await inBlocks(device.ledger) < settled(source.ledger))
        #expect(try await main(device.ledger) == main(source.ledger))
    }

    /// The rows and blocks of `ids` in `ledger`'s vault "main": how many of each.
    private func copies(of ids: [TransactionID], in ledger: Ledger) async throws -> (rows: Int?, cold: Int?) {
        try await ledger.database.pool.read { db in
            let keys = StatementArguments(ids.map { Data($0.bytes) })
            let marks = ids.map { _ in "?" }.joined(separator: ", ")
            return (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE id IN (\(marks))", arguments: keys),
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM record_cold
                        WHERE vault = (SELECT num FROM vault WHERE id = 'main') AND +id IN (\(marks))
                        """,
                    arguments: keys
                )
            )
        }
    }

    /// `full` with `more` records, in history order.
    private func fullWith(_ more: [RecordState]) -> ChangeSet {
        ChangeSet(
            header: full.header,
            records: (full.records + more).sorted {
                ($0.facts.value.timestamp, $0.id) < ($1.facts.value.timestamp, $1.id)
            }
        )
    }

    /// The history of "main" that `source` holds once `more` is merged into it.
    private func sourceWith(_ more: [RecordState]) async throws -> [TransactionRecord] {
        _ = try await source.ledger.merge(ChangeSet(header: full.header, records: more))
        return try await main(source.ledger)
    }

    /// Named first in a block, then again after the records that come later (out of history
    /// order, so a row): one record, its copies joined, kept as a row.
    @Test func aRecordNamedInABlockAndInARowIsJoinedIntoOneRow() async throws {
        let settledRecord = try #require(
            full.records.first { RecordRow.statusCode($0.status) == 2 && $0.hidden == nil }
        )
        let other = try await TestLedger(copyOf: source.ledger, clock: ManualClock())
        other.clock.advance(by: 60)
        _ = try await other.ledger.setNote("seen on the laptop", for: settledRecord.id)
        let copy = try #require(try await other.ledger.state(settledRecord.id))
        let device = try await TestLedger()
        _ = try await device.ledger.merge(ChangeSet(header: full.header, records: fullWith([]).records + [copy]))
        #expect(try await main(device.ledger) == sourceWith([copy]))
        #expect(try await main(device.ledger).first { $0.id == settledRecord.id }?.note == "seen on the laptop")
        let (rows, cold) = try await copies(of: [settledRecord.id], in: device.ledger)
        #expect(rows == 1)
        #expect(cold == 0)
    }

    /// In progress (a row), named in the first batch and again in the last one with what
    /// another device wrote: the second is joined with the row the first left, not written
    /// over it (a load into an empty ledger reads only the rows it wrote itself).
    @Test func aRecordInProgressNamedInTwoBatchesIsJoined() async throws {
        let open = try #require(full.records.first { RecordRow.statusCode($0.status) < 2 })
        let other = try await TestLedger(copyOf: source.ledger, clock: ManualClock())
        other.clock.advance(by: 60)
        _ = try await other.ledger.setNote("seen on the laptop", for: open.id)
        let copy = try #require(try await other.ledger.state(open.id))
        _ = try await source.ledger.setLabels(["rent"], for: open.id)
        let labelled = try await source.ledger.changes(vault: "main")
        let records = labelled.records.sorted {
            ($0.facts.value.timestamp, $0.id) < ($1.facts.value.timestamp, $1.id)
        }
        #expect(records.firstIndex { $0.id == open.id }! < records.count - LedgerTransaction.mergeBatch.count)
        let device = try await TestLedger()
        _ = try await device.ledger.merge(ChangeSet(header: labelled.header, records: records + [copy]))
        let joined = try await main(device.ledger).first { $0.id == open.id }
        #expect(joined?.note == "seen on the laptop")
        #expect(joined?.labels == ["rent"])
        #expect(try await main(device.ledger) == sourceWith([copy]))
    }

    /// Named twice in history order, at two timestamps (another device's facts, later): two
    /// blocks name it; one record, joined, kept as a row.
    @Test func aRecordNamedInTwoBlocksIsJoinedIntoOneRow() async throws {
        let early = HistoryFixture.start.addingTimeInterval(60)
        // Where record 2 × mergeBatch of the fixture is: in a later batch of "main" than the first.
        let late = HistoryFixture.start.addingTimeInterval(6.5 * 3600 * Double(2 * LedgerTransaction.mergeBatch.count))
        let first = try Fixture.minimalSend(vault: "main", hash: 9001, at: early)
        try await source.ledger.record(first)
        _ = try await source.ledger.updateStatus(first.id, to: .confirmed(at: early))
        let elsewhere = try await TestLedger()
        elsewhere.clock.advance(by: 60)
        let second = try Fixture.minimalSend(vault: "main", hash: 9001, at: late)
        try await elsewhere.ledger.record(second)
        _ = try await elsewhere.ledger.updateStatus(second.id, to: .confirmed(at: late))
        let copy = try #require(try await elsewhere.ledger.state(second.id))
        let withFirst = try await source.ledger.changes(vault: "main")
        let device = try await TestLedger()
        _ = try await device.ledger.merge(
            ChangeSet(
                header: withFirst.header,
                records: (withFirst.records + [copy]).sorted {
                    ($0.facts.value.timestamp, $0.id) < ($1.facts.value.timestamp, $1.id)
                }
            )
        )
        #expect(try await main(device.ledger) == sourceWith([copy]))
        #expect(try await main(device.ledger).first { $0.id == first.id }?.timestamp == late)
        let (rows, cold) = try await copies(of: [first.id], in: device.ledger)
        #expect(rows == 1)
        #expect(cold == 0)
    }

    /// A load writes the blocks' directory in runs of entries (`BlockDirectory.runLength`): with
    /// more than two runs' worth of settled records and a remainder, every record in a block has
    /// its entry and is found by its id.
    @Test func everyRecordInABlockIsFoundByItsID() async throws {
        let large = try await TestLedger()
        try await large.ledger.record(try HistoryFixture.records(count: 2000))
        let full = try await large.ledger.changes(vault: "main")
        let device = try await TestLedger()
        try await device.ledger.merge(full)
        let held = try await inBlocks(device.ledger)
        #expect(held > 2 * BlockDirectory.runLength)
        #expect(held % BlockDirectory.runLength != 0)
        let (entries, runs) = try await device.ledger.database.pool.read { db in
            (try BlockFixture.directoryEntries(db), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record_block_ids"))
        }
        #expect(entries == held)
        #expect(runs == (held + BlockDirectory.runLength - 1) / BlockDirectory.runLength)
        for record in full.records {
            #expect(try await device.ledger.transaction(id: record.id) != nil, "\(record.id) not found")
        }
    }

    /// A load into an empty ledger looks up only the ids it wrote as rows, while it remembers
    /// them all; past `rowIDLimit` it forgets them and looks up every id, as any merge does (a
    /// change set of records all in progress would otherwise hold every id in memory).
    @Test func aLoadPastItsLimitOfRowIDsLooksUpEveryID() async throws {
        let (kept, forgotten) = try await source.ledger.database.pool.write { db in
            let store = RecordStore(db, path: "", changeSeq: 1)
            let open = try Row.fetchAll(
                db,
                sql: "SELECT \(BlockFixture.columns) FROM record WHERE status < 2 ORDER BY time, id LIMIT 3"
            ).map(BlockFixture.values)
            try db.execute(sql: "DELETE FROM record")
            var load = try BlockLoad(vault: open[0].vault, store: store, rowIDLimit: 2)
            try load.write(Array(open.prefix(2)), to: store)
            let kept = load.mayBeStored(open.map(\.id))
            try load.write([open[2]], to: store)
            return (kept, load.mayBeStored([TransactionID(bytes: Array(repeating: 7, count: 16))!]))
        }
        #expect(kept.count == 2)
        #expect(forgotten.count == 1)
    }
}
