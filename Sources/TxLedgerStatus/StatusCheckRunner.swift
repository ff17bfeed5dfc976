import Foundation
import Logging
import TxLedgerCore
import TxLedgerStore

/// The work of `StatusRefresher` (the facade's public type, Sources/TxLedger): the passes over
/// pending records, their requests and the answers written through the status lattice.
package final class StatusCheckRunner: Sendable {
    package let database: LedgerDatabase
    package let configuration: RefreshConfiguration
    private let transport: any HTTPTransport
    private let clock: any RefreshClock
    private let network = LockedValue(true)

    package init(
        database: LedgerDatabase,
        configuration: RefreshConfiguration,
        transport: any HTTPTransport,
        clock: any RefreshClock
    ) {
        self.database = database
        self.configuration = configuration
        self.transport = transport
        self.clock = clock
    }

    /// Tells the refresher whether the network is reachable (e.g. from `NWPathMonitor`).
    /// While it is not, passes make no request and report every record `offline`.
    package func setNetworkAvailable(_ available: Bool) {
        network.set(available)
    }

    package var isNetworkAvailable: Bool { network.get() }

    /// Checks every pending record of `vault` (or of every vault) once, every record whose
    /// failure was inferred within its chain's `EvidencePolicy.recheckInferredFor`, and every
    /// record whose outcome devices dispute; with `verifyingWithin`, also every record
    /// broadcast within that many seconds whose outcome another device said (crdt.md,
    /// "Outcomes the chain settles"). What the chain answers is written as its answer.
    package func refreshPending(
        vault: String? = nil,
        verifyingWithin window: TimeInterval? = nil
    ) async throws
        -> RefreshSummary
    {
        var records = try await database.pendingRecords(vault: vault) + recheckedInferences(vault: vault)
        records += try await database.disputedRecords(vault: vault)
        if let window {
            records += try await database.outcomesOfOtherDevices(
                vault: vault,
                since: clock.now.addingTimeInterval(-window)
            )
        }
        var seen: Set<TransactionID> = []
        return try await check(records.filter { seen.insert($0.id).inserted })
    }

    /// The records inferred failed recently enough to be checked again, newest first.
    private func recheckedInferences(vault: String?) async throws -> [TransactionRecord] {
        let now = clock.now
        let longest = ([configuration.evidence] + configuration.evidenceByChain.values).map(\.recheckInferredFor).max()!
        return try await database.inferredFailures(vault: vault, since: now.addingTimeInterval(-longest))
            .filter {
                now.timeIntervalSince($0.inferredAt) <= configuration.evidence(for: $0.record).recheckInferredFor
            }
            .map(\.record)
    }

    /// Polls until no record that can be checked is pending, or until the task is cancelled
    /// (which ends the loop without an error). Looks for newly recorded transactions at least
    /// every `cadence.shortest` seconds. Records without a provider or endpoint are reported
    /// once and then left alone.
    /// - Parameters:
    ///   - vault: only this vault's records; every vault when absent.
    ///   - onPass: called after each pass that checked something.
    package func watch(
        vault: String? = nil,
        onPass: @Sendable (RefreshSummary) async -> Void = { _ in }
    ) async throws {
        let cadence = configuration.cadence
        var due: [TransactionID: Date] = [:]
        while !Task.isCancelled {
            let pending = try await database.pendingRecords(vault: vault)
            var checkable = Set(pending.filter { configuration.route($0)?.endpoint != nil }.map(\.id))
            if checkable.isEmpty && pending.allSatisfy({ due[$0.id] != nil }) { return }
            // Records inferred failed are checked too, on the slowest cadence, while the loop
            // runs for pending ones.
            let records = pending + (try await recheckedInferences(vault: vault))
            let ids = Set(records.map(\.id))
            due = due.filter { ids.contains($0.key) }

            let now = clock.now
            let dueNow = records.filter { (due[$0.id] ?? .distantPast) <= now }
            if !dueNow.isEmpty {
                let summary = try await check(dueNow)
                await onPass(summary)
                checkable.subtract(summary.results.filter(\.record.status.isTerminal).map(\.record.id))
                let inferred = Set(summary.results.filter { $0.record.statusEvidence == .inference }.map(\.record.id))
                for record in dueNow {
                    // Records that cannot be checked were reported in this pass; not again.
                    due[record.id] =
                        checkable.contains(record.id)
                        ? now.addingTimeInterval(cadence.interval(age: now.timeIntervalSince(record.timestamp)))
                        : inferred.contains(record.id) ? now.addingTimeInterval(cadence.finalInterval) : .distantFuture
                }
            }
            if checkable.isEmpty { return }
            let next = min(due.values.min() ?? now, now.addingTimeInterval(cadence.shortest))
            do {
                try await clock.sleep(until: next)
            } catch is CancellationError {
                return
            }
        }
    }

    // MARK: - One pass

    /// Checks `records`, bounded overall and per endpoint, writing each answer as it arrives.
    /// The summary lists them in the order given (newest first from `pendingRecords`).
    func check(_ records: [TransactionRecord]) async throws -> RefreshSummary {
        guard isNetworkAvailable else {
            return RefreshSummary(
                results: records.map {
                    RefreshResult(record: $0, previousStatus: $0.status, outcome: .notChecked(.offline))
                }
            )
        }
        var results: [RefreshResult] = []
        var queue: [(TransactionRecord, RefreshConfiguration.Route, StatusEndpoint)] = []
        for record in records {
            guard let route = configuration.route(record) else {
                results.append(
                    RefreshResult(record: record, previousStatus: record.status, outcome: .notChecked(.noProvider))
                )
                continue
            }
            guard let endpoint = route.endpoint else {
                results.append(
                    RefreshResult(
                        record: record,
                        previousStatus: record.status,
                        outcome: .notChecked(.noEndpoint(route.key))
                    )
                )
                continue
            }
            queue.append((record, route, endpoint))
        }

        let transport = transport
        let timeout = configuration.timeout
        let clock = clock
        let maxInFlight = max(configuration.maxInFlight, 1)
        try await withThrowingTaskGroup(
            of: (TransactionRecord, StatusEndpoint, Result<StatusUpdate?, StatusCheckError>).self
        ) { group in
            var running = 0
            var runningAt: [StatusEndpoint: Int] = [:]
            while !queue.isEmpty || running > 0 {
                while running < maxInFlight,
                    let index = queue.firstIndex(where: { runningAt[$0.2, default: 0] < configuration.limit(at: $0.2) })
                {
                    let (record, route, endpoint) = queue.remove(at: index)
                    running += 1
                    runningAt[endpoint, default: 0] += 1
                    let evidence = configuration.evidence(for: record)
                    group.addTask {
                        let client = EndpointClient(
                            endpoint: endpoint,
                            transport: transport,
                            timeout: timeout,
                            evidence: evidence
                        )
                        do {
                            return (
                                record, endpoint, .success(try await route.provider.check(record, with: client).update)
                            )
                        } catch let error as StatusCheckError {
                            return (record, endpoint, .failure(error))
                        } catch is CancellationError {
                            throw CancellationError()
                        } catch {
                            return (record, endpoint, .failure(.providerFailed(String(describing: type(of: error)))))
                        }
                    }
                }
                guard let (record, endpoint, answer) = try await group.next() else { break }
                running -= 1
                runningAt[endpoint, default: 0] -= 1
                if let result = try await write(answer, for: record, at: clock.now) { results.append(result) }
            }
        }
        // Answers arrive in any order; the summary lists records in the order they were given.
        let position = Dictionary(records.enumerated().map { ($1.id, $0) }) { first, _ in first }
        return RefreshSummary(
            results: results.sorted { position[$0.record.id, default: 0] < position[$1.record.id, default: 0] }
        )
    }

    /// Writes one check's answer and `lastCheckedAt`; `nil` if the record is gone.
    private func write(
        _ answer: Result<StatusUpdate?, StatusCheckError>,
        for record: TransactionRecord,
        at checkedAt: Date
    ) async throws -> RefreshResult? {
        let answered: Bool
        if case .success = answer { answered = true } else { answered = false }
        guard
            let written = try await database.recordCheck(
                record.id,
                update: try? answer.get(),
                answered: answered,
                checkedAt: checkedAt,
                inferenceInterval: configuration.evidence(for: record).inferenceInterval
            )
        else {
            return nil
        }
        let outcome: RefreshResult.Outcome
        switch answer {
        case let .failure(error):
            outcome = .notChecked(error)
            database.options.logger.info(
                "status check failed",
                metadata: [
                    "id": "\(record.id)", "chain": "\(record.chain)", "problem": "\(error)",
                ]
            )
        case .success:
            outcome = written.changed ? .changed : .unchanged
        }
        return RefreshResult(record: written.record, previousStatus: written.previous, outcome: outcome)
    }
}
