import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Issue #35's scenario through a sync folder: a device whose clock runs a year fast clears a
/// vault; two devices at the right time record after it in real time, before they hear of it;
/// everyone syncs, in every order. What they recorded survives on every device; what the fast
/// device had seen is cleared, named where it lands, and restored everywhere by one restore.
struct SkewedClockClearTests {
    static let year: TimeInterval = 365 * 86_400

    @Test(arguments: [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]])
    func aClearFromAClockAYearAheadKeepsWhatOthersRecordAfterIt(order: [Int]) async throws {
        let folder = try TemporaryDirectory()
        let secret = BundleSecret.syncKey(.generate())
        let fast = try await TestLedger(clock: ManualClock(Fixture.start.addingTimeInterval(Self.year)))
        let (a, b) = (try await TestLedger(), try await TestLedger())
        let devices = [fast, a, b]
        func syncAll(_ order: [Int]) async throws -> [[ClearReport]] {
            var reports = Array(repeating: [ClearReport](), count: devices.count)
            for _ in 0..<2 {
                for index in order {
                    let report = try await devices[index].ledger.sync(folder: folder.url.path, secret: secret)
                    reports[index] += report.vaults.values.flatMap(\.clears)
                }
            }
            return reports
        }
        func ids(_ device: TestLedger) async throws -> Set<TransactionID> {
            Set(try await device.ledger.all().map(\.id))
        }

        let t1 = try Fixture.minimalSend(hash: 1)
        try await a.ledger.record(t1)
        _ = try await syncAll([1, 0, 2])
        #expect(try await ids(fast) == [t1.id])

        for device in devices { device.clock.advance(by: 300) }
        #expect(try await fast.ledger.clearHistory(vault: t1.vaultId) == 1)
        for device in devices { device.clock.advance(by: 60) }
        let (t2, t3) = (try Fixture.minimalSend(hash: 2), try Fixture.minimalSend(hash: 3))
        try await a.ledger.record(t2)
        try await b.ledger.record(t3)
        try await b.ledger.setNote("paid the plumber", for: t1.id)

        let reports = try await syncAll(order)
        for device in devices {
            #expect(try await ids(device) == [t2.id, t3.id], "what was recorded after the clear survives")
        }
        for index in [1, 2] {
            let clear = try #require(reports[index].first, "the clear is named where it lands")
            #expect(clear.records == 1 && clear.replica == fast.ledger.replicaID)
            #expect(clear.clearedAtMillis >= Fixture.start.addingTimeInterval(Self.year).millis)
        }

        // One restore, anywhere, brings it back everywhere, with the edit made meanwhile.
        let restored = try await b.ledger.restoreCleared(vault: t1.vaultId)
        #expect(restored.map(\.id) == [t1.id])
        _ = try await syncAll(order)
        for device in devices {
            #expect(try await ids(device) == [t1.id, t2.id, t3.id])
            #expect(try await device.ledger.state(t1.id)?.note?.value == "paid the plumber")
        }
    }
}
