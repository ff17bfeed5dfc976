import Foundation
import GRDB
import PropertyBased
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

struct LedgerOpeningTests {
    private func expectUnreadable(
        _ path: String,
        reason: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await #expect(sourceLocation: sourceLocation) { try await Ledger.open(path: path) } throws: { error in
            guard let failure = error as? LedgerError, failure.code == .unreadableDatabase, let p = failure.path,
                let r = failure.reason, p == path
            else { return false }
            return reason.map { r == $0 } ?? true
        }
    }

    @Test func aFileThatIsNotSQLiteIsRefusedAndLeftUntouched() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("notes.sqlite")
        let bytes = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: URL(fileURLWithPath: path))
        await expectUnreadable(path, reason: "it is not a SQLite database")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func anotherProgramsDatabaseIsRefusedAndLeftUntouched() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("other.sqlite")
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('ann')")
        }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        await expectUnreadable(path, reason: "it is a SQLite database of another program, not a TxLedger ledger")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aLedgerFromANewerVersionIsRefusedAndLeftUntouched() async throws {
        let test = try await TestLedger()
        try await test.ledger.record(try Fixture.send())
        try await test.ledger.database.pool.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
        }
        let before = try await test.ledger.all()
        await #expect(throws: LedgerError.newerSchema(path: test.ledger.path)) { try await test.reopened() }
        #expect(try await test.ledger.all() == before)
    }

    @Test func aTruncatedLedgerFailsWithAClearErrorAndIsNotRepaired() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("ledger.sqlite")
        do {
            let ledger = try await Ledger.open(path: path)
            try await ledger.record(try (1...2000).map { try Fixture.send(hash: $0) })
            _ = try await ledger.database.pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        }
        let url = URL(fileURLWithPath: path)
        let full = try Data(contentsOf: url)
        let truncated = full.prefix(full.count / 3)
        try truncated.write(to: url)
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")

        await #expect {
            let ledger = try await Ledger.open(path: path)
            _ = try await ledger.all()
        } throws: { error in
            switch (error as? LedgerError)?.code {
            case .unreadableDatabase?, .storage?: true
            default: false
            }
        }
        #expect(try Data(contentsOf: url) == truncated)
    }

    @Test func reopeningKeepsTheReplicaIdentity() async throws {
        let test = try await TestLedger()
        #expect(try await test.reopened().replicaID == test.ledger.replicaID)
        #expect(try await TestLedger().ledger.replicaID != test.ledger.replicaID)
    }

    @Test func createsMissingFolders() async throws {
        let dir = try TemporaryDirectory()
        let ledger = try await Ledger.open(path: dir.path("a/b/ledger.sqlite"))
        try await ledger.record(try Fixture.send())
        #expect(FileManager.default.fileExists(atPath: dir.path("a/b/ledger.sqlite")))
    }

    @Test func appliesThePragmasTheSpecNames() async throws {
        let test = try await TestLedger()
        let (mode, sync, keys) = try await test.ledger.database.pool.read { db in
            (
                try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"),
                try Int.fetchOne(db, sql: "PRAGMA foreign_keys")
            )
        }
        #expect(mode == "wal")
        #expect(sync == 1)  // NORMAL
        #expect(keys == 1)
        // Cache, checkpoint and WAL limits, on the writer and on readers alike.
        let values: @Sendable (Database) throws -> [Int?] = { db in
            try ["cache_size", "wal_autocheckpoint", "journal_size_limit"].map {
                try Int.fetchOne(db, sql: "PRAGMA \($0)")
            }
        }
        let onRead = try await test.ledger.database.pool.read(values)
        let onWrite = try await test.ledger.database.pool.write(values)
        for row in [onRead, onWrite] {
            #expect(row == [-65536, 8192, 33_554_432])
        }
    }

    #if os(Linux)
    @Test func defaultPathFollowsTheEnvironment() {
        #expect(Ledger.defaultPath(environment: ["TXLEDGER_DB": "/x/l.sqlite", "HOME": "/h"]) == "/x/l.sqlite")
        #expect(
            Ledger.defaultPath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/h"]) == "/data/txledger/ledger.sqlite"
        )
        #expect(Ledger.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/share/txledger/ledger.sqlite")
        #expect(
            Ledger.defaultPath(environment: ["TXLEDGER_DB": "", "XDG_DATA_HOME": "", "HOME": "/h"])
                == "/h/.local/share/txledger/ledger.sqlite"
        )
    }
    #endif

    @Test func aStoredValueOfTheWrongTypeIsAClearErrorNotACrash() async throws {
        let test = try await TestLedger()
        let record = try Fixture.minimalSend(hash: 1)
        try await test.ledger.record(record)
        // A BLOB column keeps a text as a text.
        try await test.ledger.database.pool.write { db in try db.execute(sql: "UPDATE record SET state = 'soon'") }
        await #expect { try await test.ledger.transaction(id: record.id) } throws: { error in
            guard let failure = error as? LedgerError, failure.code == .unreadableDatabase, let reason = failure.reason
            else { return false }
            return reason.contains(record.id.rawValue) && reason.contains("not of its type")
        }
        let stored = try await test.ledger.database.pool.read { db in
            try String.fetchOne(db, sql: "SELECT state FROM record")
        }
        #expect(stored == "soon")  // reading reports it and changes nothing
    }

    @Test func aDamagedStoredStateIsAClearErrorNotACrash() async throws {
        let test = try await TestLedger()
        let record = try Fixture.send(hash: 1)
        try await test.ledger.record(record)
        let original = try await test.ledger.database.pool.read { db in
            try Data.fetchOne(db, sql: "SELECT state FROM record")
        }
        for damage in [
            "substr(state, 1, length(state) - 1)",  // cut short
            "state || x'0801'",  // a field after the last one, out of order
            "x'0a' || substr(state, 2)",  // its first tag changed
        ] {
            try await test.ledger.database.pool.write { db in
                try db.execute(sql: "UPDATE record SET state = \(damage)")
            }
            await #expect { try await test.ledger.transaction(id: record.id) } throws: { error in
                guard let failure = error as? LedgerError, failure.code == .unreadableDatabase,
                    let reason = failure.reason
                else { return false }
                return reason.contains(record.id.rawValue) && reason.contains("malformed")
            }
            try await test.ledger.database.pool.write { db in
                try db.execute(sql: "UPDATE record SET state = ?", arguments: [original])
            }
            #expect(try await test.ledger.transaction(id: record.id) == record)
        }
    }
}
