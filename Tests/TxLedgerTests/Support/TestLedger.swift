import Foundation
import GRDB
import Logging
@testable import TxLedger

/// A ledger in its own temporary folder, with a wall clock the test controls.
struct TestLedger {
    let directory: TemporaryDirectory
    let clock: ManualClock
    let ledger: Ledger

    init(clock: ManualClock = ManualClock()) throws {
        directory = try TemporaryDirectory()
        self.clock = clock
        ledger = try Ledger(path: directory.path("ledger.sqlite"), options: .init(wallClock: clock.wallClock, logger: .quiet))
    }

    /// Opens the same file again, as a restarted app would.
    func reopened(clock: ManualClock? = nil) throws -> Ledger {
        try Ledger(path: ledger.path, options: .init(wallClock: (clock ?? self.clock).wallClock, logger: .quiet))
    }
}

extension Logger {
    /// Tests provoke warnings on purpose (far-future stamps); they are asserted, not printed.
    static let quiet = Logger(label: "txledger-tests", factory: { _ in SwiftLogNoOpLogHandler() })
}

extension Ledger {
    /// The stored CRDT state of a record (stamps included).
    func state(_ id: TransactionID) throws -> RecordState? {
        try pool.read { db in try RecordStore(db, path: path).fetch(id: id) }
    }

    /// Every record of every vault, hidden ones included.
    func all() async throws -> [TransactionRecord] {
        try await list(HistoryFilter(includeHidden: true), limit: Int.max).items
    }
}
