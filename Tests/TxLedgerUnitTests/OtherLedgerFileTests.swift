import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

/// The limits of reading another replica's ledger file that no file written by TxLedger
/// reaches (Specs/threat-model.md, "Another replica's ledger file").
struct OtherLedgerFileTests {
    func otherLedger() async throws -> TestLedger {
        let other = try await TestLedger()
        try await other.ledger.record(try (1...5000).map { try Fixture.minimalSend(vault: "main", hash: $0) })
        return other
    }

    @Test func readingPastTheWorkBudgetEndsInAnErrorNamingTheFile() async throws {
        let other = try await otherLedger()
        #expect {
            let file = try OtherLedgerFile(path: other.ledger.path, notBeing: "/nonexistent", steps: 100_000)
            try file.read { store in try store.forEachStored(vault: "main", changedAfter: 0) { _, _ in } }
        } throws: { error in
            guard let failure = error as? LedgerError, failure.code == .unreadableDatabase, let path = failure.path,
                let reason = failure.reason
            else { return false }
            return path == other.ledger.path && reason.contains("more work than a ledger of its size needs")
        }
        // The same file within the default budget reads to its end.
        let whole = try OtherLedgerFile(path: other.ledger.path, notBeing: "/nonexistent")
        var (count, bytes) = (0, 0)
        try whole.read { store in
            try store.forEachStored(vault: "main", changedAfter: 0) { _, frameBytes in
                count += 1
                bytes += frameBytes
            }
        }
        #expect(count == 5000)
        // Each record comes with the bytes of its stored frame, which a merge counts.
        let stored = try await other.ledger.database.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT sum(length(state)) FROM record")
        }
        #expect(bytes == stored)
    }

    @Test func epochsThatStartAfterTheLastChangeAreRefused() async throws {
        let other = try await otherLedger()
        try await other.ledger.database.pool.write { db in
            let insert = try db.makeStatement(sql: "INSERT INTO epoch (id, first_seq) VALUES (?, ?)")
            for n in 1...(ChangeSetHeader.maxEpochs + 1) { try insert.execute(arguments: [n, 1_000_000 + n]) }
        }
        let file = try OtherLedgerFile(path: other.ledger.path, notBeing: "/nonexistent")
        #expect(
            throws: LedgerError.unreadableDatabase(path: other.ledger.path, reason: "its table of epochs is damaged")
        ) {
            try file.read { store in try store.changeSetHeader("main", since: 0) }
        }
    }
}
