import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

/// The query plans of history pages: an index gives the newest-first order, so a page reads
/// the rows it returns (plus those its filters skip), never the whole vault followed by a sort;
/// only records that share a millisecond are ordered by id as they are read (the "right part"
/// of the order).
/// Checked on the plan SQLite chooses, not by timing (the benchmarks time it, issue #7).
struct HistoryIndexTests {
    private func plan(_ filter: HistoryFilter, cursor: Bool = false) async throws -> String {
        let test = try await TestLedger()
        let records = try HistoryFixture.records(count: 40)
        try await test.ledger.record(records)
        let after = cursor ? PageCursor(after: records[20]) : nil
        return try await test.ledger.database.pool.read { db in
            let (sql, arguments) = try RecordStore(db, path: "").pageQuery(filter, after: after, limit: 51)
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map {
                $0["detail"] as String
            }
        }.joined(separator: "\n")
    }

    @Test(arguments: [
        (HistoryFilter(vault: "main"), "record_by_vault_time"),
        (HistoryFilter(vault: "main", tab: .swaps), "record_by_vault_kind_time"),
        (
            HistoryFilter(vault: "main", tab: .sends, chains: [try! Chain(parsing: "ethereum")]),
            "record_by_vault_chain_time"
        ),
        (HistoryFilter(vault: "main", chains: [try! Chain(parsing: "solana")]), "record_by_vault_chain_time"),
        (HistoryFilter(vault: "main").inProgress, "record_in_progress"),
        (HistoryFilter(vault: "main", tab: .swaps).inProgress, "record_in_progress"),
        (
            HistoryFilter(vault: "main", tab: .sends, chains: [try! Chain(parsing: "bitcoin")]).inProgress,
            "record_in_progress"
        ),
        (HistoryFilter(), "record_by_time"),
    ])
    func pagesReadAnIndexInOrder(filter: HistoryFilter, index: String) async throws {
        for cursor in [false, true] {
            let plan = try await plan(filter, cursor: cursor)
            #expect(plan.contains("INDEX \(index)"), "\(plan)")
            #expect(!plan.contains("TEMP B-TREE FOR ORDER BY"), "\(plan)")
        }
    }

    /// The records a status check looks at again (failed by inference) are read through the
    /// partial index that holds only them, newest first.
    @Test func inferredFailuresAreReadThroughTheirPartialIndex() async throws {
        let test = try await TestLedger()
        try await test.ledger.record(try HistoryFixture.records(count: 40))
        let plan = try await test.ledger.database.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + RecordStore.inferredFailuresQuery).map {
                $0["detail"] as String
            }
        }.joined(separator: "\n")
        #expect(plan.contains("INDEX record_inferred"), "\(plan)")
        #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
    }

    /// The plan of `sql` with `arguments`, in a ledger of 40 records.
    private func plan(of sql: String, _ arguments: StatementArguments) async throws -> String {
        let test = try await TestLedger()
        try await test.ledger.record(try HistoryFixture.records(count: 40))
        return try await test.ledger.database.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        }.joined(separator: "\n")
    }

    /// A delta (what a peer lacks) reads the vault's rows changed after a number through
    /// `record_by_vault_change`, not the whole table.
    @Test func aDeltaReadsTheChangeIndex() async throws {
        let query = RecordStore.storedFramesQuery(vault: "main", since: 30)
        let plan = try await plan(of: query.sql, query.arguments)
        #expect(plan.contains("INDEX record_by_vault_change (vault=? AND change_seq>?)"), "\(plan)")
    }

    /// A full change set reads the vault's rows in history order through
    /// `record_by_vault_time`, sorting only the records that share a millisecond, not the vault.
    @Test func aFullChangeSetReadsTheTimeIndexInOrder() async throws {
        let query = RecordStore.storedFramesQuery(vault: "main", since: 0)
        let plan = try await plan(of: query.sql, query.arguments)
        #expect(plan.contains("INDEX record_by_vault_time (vault=?)"), "\(plan)")
        #expect(plan.contains("RIGHT PART OF ORDER BY"), "\(plan)")
    }

    /// A record's replacements are found through the partial index that holds only them.
    @Test func replacementsAreFoundThroughTheirPartialIndex() async throws {
        let plan = try await plan(of: RecordStore.replacementsQuery, [Data(repeating: 1, count: 16)])
        #expect(plan.contains("INDEX record_replacing (replaced=?)"), "\(plan)")
    }
}
