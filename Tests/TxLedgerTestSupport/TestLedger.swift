import Foundation
import GRDB
import Logging

@testable import TxLedger
@testable import TxLedgerCore

/// A ledger in its own temporary folder, with a wall clock the test controls.
struct TestLedger {
    let directory: TemporaryDirectory
    let clock: ManualClock
    let ledger: Ledger

    init(clock: ManualClock = ManualClock()) async throws {
        directory = try TemporaryDirectory()
        self.clock = clock
        ledger = try await Ledger.open(
            path: directory.path("ledger.sqlite"),
            options: .init(wallClock: clock.wallClock, logger: .quiet)
        )
    }

    /// A copy of `ledger`'s file, in a folder of its own, opened with `clock`: a backup that
    /// is restored, or a phone cloned from another's backup (same replica id, same epochs).
    init(copyOf ledger: Ledger, clock: ManualClock) async throws {
        directory = try TemporaryDirectory()
        self.clock = clock
        let path = directory.path("ledger.sqlite")
        try await DedicatedThread.run {
            let copy = try DatabaseQueue(path: path)
            try ledger.database.pool.backup(to: copy)
            try copy.close()
        }
        self.ledger = try await Ledger.open(path: path, options: .init(wallClock: clock.wallClock, logger: .quiet))
    }

    /// Opens the same file again, as a restarted app would.
    func reopened(clock: ManualClock? = nil) async throws -> Ledger {
        try await Ledger.open(
            path: ledger.path,
            options: .init(wallClock: (clock ?? self.clock).wallClock, logger: .quiet)
        )
    }
}

extension Logger {
    /// Tests provoke warnings on purpose (far-future stamps); they are asserted, not printed.
    static let quiet = Logger(label: "txledger-tests", factory: { _ in SwiftLogNoOpLogHandler() })
}

extension Ledger {
    /// The stored CRDT state of a record (stamps included).
    func state(_ id: TransactionID) async throws -> RecordState? {
        try await read { store in try store.fetch(id: id) }
    }

    /// Every record of every vault, hidden ones included.
    func all() async throws -> [TransactionRecord] {
        try await list(HistoryFilter(includeHidden: true), limit: Int.max).items
    }
}
