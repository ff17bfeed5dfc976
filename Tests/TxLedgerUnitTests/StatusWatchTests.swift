import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStatus
@testable import TxLedgerTestSupport

/// The polling loop, on a clock the test moves: no test here sleeps.
@Suite struct StatusWatchTests {
    /// When the standard cadence checks a record that is `age` seconds old at the start, until
    /// `end` or until the first check at or after `finalAt`.
    static func expectedChecks(
        age: TimeInterval,
        end: TimeInterval,
        finalAt: TimeInterval = .infinity
    ) -> [TimeInterval] {
        var times: [TimeInterval] = []
        var t: TimeInterval = 0
        while t <= end {
            times.append(t)
            if t >= finalAt { break }
            t += RefreshCadence.standard.interval(age: age + t)
        }
        return times
    }

    /// Runs `watch` and moves the clock from one of its sleeps to the next until `end` seconds
    /// have passed (then cancels it) or the loop returns on its own.
    /// - Returns: whether the loop returned on its own.
    static func drive(
        _ refresher: StatusRefresher,
        _ clock: ManualRefreshClock,
        end: TimeInterval,
        onPass: @escaping @Sendable (RefreshSummary) async -> Void = { _ in }
    ) async throws -> Bool {
        let loop = Task {
            defer { clock.finish() }
            try await refresher.watch(onPass: onPass)
        }
        var cancelled = false
        while let deadline = await clock.nextDeadline() {
            if deadline > StatusFixture.now + end {
                loop.cancel()
                cancelled = true
                break
            }
            clock.advance(to: deadline)
        }
        try await loop.value
        return !cancelled
    }

    @Test func eachRecordIsCheckedOnTheCadenceOfItsAgeUntilItIsFinal() async throws {
        let fresh = try StatusFixture.bitcoinSend(1, age: 0)
        let minutes = try StatusFixture.bitcoinSend(2, age: 300)
        let old = try StatusFixture.bitcoinSend(3, age: 1200)
        let harness = try await RefreshHarness([fresh, minutes, old])
        let clock = harness.clock
        let log = CheckLog()
        let server = try await ChainServer.start { request in
            let t = clock.now.timeIntervalSince(StatusFixture.now)
            await log.add(request.path, at: t)
            let final = request.path.contains(fresh.txHash!) && t >= 200
            return .http(200, final ? ChainResponses.esploraConfirmed : ChainResponses.esploraUnconfirmed)
        }
        let passes = Passes()
        let refresher = harness.refresher(["bitcoin": try server.endpoint()])
        let byItself = try await Self.drive(refresher, clock, end: 900) { await passes.add($0) }
        await server.stop()

        #expect(!byItself)
        #expect(await log.times("/tx/\(fresh.txHash!)") == Self.expectedChecks(age: 0, end: 900, finalAt: 200))
        #expect(await log.times("/tx/\(minutes.txHash!)") == Self.expectedChecks(age: 300, end: 900))
        #expect(await log.times("/tx/\(old.txHash!)") == Self.expectedChecks(age: 1200, end: 900))
        // The schedule in numbers: 5 s during the first minute, 15 s to 10 minutes, then 30 s.
        #expect(
            Self.expectedChecks(age: 0, end: 900, finalAt: 200)
                == [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 75, 90, 105, 120, 135, 150, 165, 180, 195, 210]
        )
        #expect(
            Self.expectedChecks(age: 300, end: 900).filter { (270...360).contains($0) } == [270, 285, 300, 330, 360]
        )
        #expect(Self.expectedChecks(age: 1200, end: 900).prefix(4) == [0, 30, 60, 90])
        #expect(await passes.changed == [fresh.id])
        #expect(try await harness.record(fresh.id).status == .confirmed)
        #expect(try await harness.record(old.id).lastCheckedAt == StatusFixture.now + 900)
    }

    @Test func theCadenceStepsAtOneAndTenMinutes() {
        let cadence = RefreshCadence.standard
        #expect([0, 59.9, 60, 599.9, 600, 86_400].map(cadence.interval(age:)) == [5, 5, 15, 15, 30, 30])
    }

    @Test func newRecordsArePickedUpWithinFiveSecondsAndTheLoopEndsByItself() async throws {
        let old = try StatusFixture.bitcoinSend(1, age: 1200)  // checked every 30 s
        let harness = try await RefreshHarness([old])
        let clock = harness.clock
        let ledger = harness.ledger
        let later = try StatusFixture.bitcoinSend(2, age: -3)  // recorded during the first pass
        let log = CheckLog()
        let server = try await ChainServer.start { request in
            let t = clock.now.timeIntervalSince(StatusFixture.now)
            await log.add(request.path, at: t)
            return .http(200, t >= 30 ? ChainResponses.esploraConfirmed : ChainResponses.esploraUnconfirmed)
        }
        let refresher = harness.refresher(["bitcoin": try server.endpoint()])
        let byItself = try await Self.drive(refresher, clock, end: 3600) { _ in
            _ = try? await ledger.record(later)
        }
        await server.stop()

        #expect(byItself)
        #expect(await log.times("/tx/\(old.txHash!)") == [0, 30])
        #expect(await log.times("/tx/\(later.txHash!)") == [5, 10, 15, 20, 25, 30])
        #expect(try await ledger.pendingRecords().isEmpty)
    }

    @Test func recordsWithoutAnEndpointAreReportedOnceAndDoNotKeepTheLoopAlive() async throws {
        let solana = try StatusFixture.solanaSend()
        let harness = try await RefreshHarness([solana])
        let passes = Passes()
        let byItself = try await Self.drive(harness.refresher([:]), harness.clock, end: 3600) { await passes.add($0) }
        #expect(byItself)
        #expect(await passes.notChecked == [.noEndpoint("solana")])
    }
}

private actor CheckLog {
    private var entries: [(String, TimeInterval)] = []
    func add(_ path: String, at t: TimeInterval) { entries.append((path, t)) }
    func times(_ path: String) -> [TimeInterval] { entries.filter { $0.0 == path }.map(\.1) }
}

private actor Passes {
    private(set) var changed: [TransactionID] = []
    private(set) var notChecked: [StatusCheckError] = []
    func add(_ summary: RefreshSummary) {
        changed += summary.changed.map(\.record.id)
        notChecked += summary.notChecked.compactMap {
            if case let .notChecked(error) = $0.outcome { error } else { nil }
        }
    }
}
