import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

struct PaginationTests {
    /// 300 records over 40 distinct milliseconds, so many share a timestamp.
    private func seeded() async throws -> (TestLedger, [TransactionRecord]) {
        let test = try await TestLedger()
        var records: [TransactionRecord] = []
        for i in 0..<300 {
            let vault = i % 3 == 0 ? "savings" : "main"
            let time = Fixture.start.addingTimeInterval(Double(i % 40) / 1000)
            records.append(try Fixture.minimalSend(vault: vault, hash: i + 1, at: time))
        }
        try await test.ledger.record(records.shuffled())
        return (test, records)
    }

    private func walk(_ ledger: Ledger, vault: String? = nil, limit: Int) async throws -> [TransactionRecord] {
        var seen: [TransactionRecord] = []
        var cursor: PageCursor?
        repeat {
            let page = try await ledger.list(HistoryFilter(vault: vault), limit: limit, after: cursor)
            #expect(page.items.count <= limit)
            seen += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return seen
    }

    @Test(arguments: [1, 7, 50, 299, 300, 1000])
    func pagesVisitEveryRecordOnceNewestFirst(limit: Int) async throws {
        let (test, records) = try await seeded()
        let seen = try await walk(test.ledger, limit: limit)
        #expect(seen.count == records.count)
        #expect(Set(seen.map(\.id)) == Set(records.map(\.id)))
        let expected = records.sorted { ($0.timestamp, $0.id) > ($1.timestamp, $1.id) }
        #expect(seen.map(\.id) == expected.map(\.id))
    }

    @Test func vaultFilterListsOnlyThatVault() async throws {
        let (test, records) = try await seeded()
        let seen = try await walk(test.ledger, vault: "savings", limit: 13)
        #expect(seen.count == records.filter { $0.vaultId == "savings" }.count)
        #expect(seen.allSatisfy { $0.vaultId == "savings" })
    }

    @Test func recordsArrivingBetweenPagesNeitherRepeatNorShiftLaterPages() async throws {
        let (test, records) = try await seeded()
        var seen: [TransactionRecord] = []
        var page = try await test.ledger.list(limit: 20)
        var arrivals = 0
        while true {
            seen += page.items
            guard let cursor = page.nextCursor else { break }
            arrivals += 1
            try await test.ledger.record(
                try Fixture.minimalSend(hash: 10_000 + arrivals, at: Fixture.start.addingTimeInterval(3600))
            )
            page = try await test.ledger.list(limit: 20, after: cursor)
        }
        #expect(seen.count == records.count)
        #expect(Set(seen.map(\.id)).count == seen.count)
    }

    @Test func theLastPageHasNoCursor() async throws {
        let (test, _) = try await seeded()
        #expect(try await test.ledger.list(limit: 300).nextCursor == nil)
        #expect(try await test.ledger.list(limit: 299).nextCursor != nil)
    }

    @Test func cursorsRoundTripAndForgedOnesAreRefused() async throws {
        let (test, _) = try await seeded()
        let cursor = try #require(try await test.ledger.list(limit: 5).nextCursor)
        #expect(try PageCursor(token: cursor.token) == cursor)
        for forged in [
            "", "abc", "!!!", Data("2:1:00".utf8).base64EncodedString(),
            Data("1:x:f5e912f53e847ac6c6bdef7a84082e66".utf8).base64EncodedString(),
        ] {
            #expect(throws: LedgerError.invalidCursor) { try PageCursor(token: forged) }
        }
        await #expect(throws: LedgerError.self) { try await test.ledger.list(limit: 0) }
    }
}
