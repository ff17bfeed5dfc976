import Foundation
import TxLedgerCore
import TxLedgerStatus

/// Checks pending transactions against chain endpoints and writes the answers through the
/// ledger's status lattice.
///
/// - `refreshPending(vault:verify:verifyWindow:)`: one pass over every pending record (and
///   every disputed one), for app open, pull-to-refresh and screen appear.
/// - `watch(vault:onPass:)`: the polling loop for while a history screen is visible; each
///   record is checked on `RefreshConfiguration.cadence` by its age, until none is pending or
///   the task is cancelled.
///
/// At most `maxInFlight` checks run at once, and at most `maxInFlightPerEndpoint` (or the
/// endpoint's own bound) at one endpoint. While the app says the network is unavailable no
/// request is made. A problem (timeout, 429, 5xx, malformed body) never changes a status.
public final class StatusRefresher: Sendable {
    public let ledger: Ledger
    public let configuration: RefreshConfiguration
    /// The passes themselves (`TxLedgerStatus`).
    let runner: StatusCheckRunner

    public init(
        ledger: Ledger,
        configuration: RefreshConfiguration,
        transport: any HTTPTransport = URLSessionTransport(),
        clock: any RefreshClock = SystemRefreshClock()
    ) {
        self.ledger = ledger
        self.configuration = configuration
        runner = StatusCheckRunner(
            database: ledger.database,
            configuration: configuration,
            transport: transport,
            clock: clock
        )
    }

    /// Tells the refresher whether the network is reachable (e.g. from `NWPathMonitor`).
    /// While it is not, passes make no request and report every record `offline`.
    public func setNetworkAvailable(_ available: Bool) {
        runner.setNetworkAvailable(available)
    }

    public var isNetworkAvailable: Bool { runner.isNetworkAvailable }

    /// Checks every pending record of `vault` (or of every vault) once, every record whose
    /// failure was inferred within its chain's `EvidencePolicy.recheckInferredFor`, and every
    /// record whose outcome devices dispute (`TransactionRecord.statusDispute`). With
    /// `verify`, also every record broadcast within `verifyWindow` (default 7 days) whose
    /// outcome another device said, so that a forged or mistaken outcome is corrected on every
    /// device once this one syncs. What the chain answers is written as the chain's answer,
    /// which outranks every device's word (Specs/crdt.md, "Outcomes the chain settles").
    public func refreshPending(
        vault: String? = nil,
        verify: Bool = false,
        verifyWindow: TimeInterval = StatusRefresher.defaultVerifyWindow
    ) async throws -> RefreshSummary {
        try await runner.refreshPending(vault: vault, verifyingWithin: verify ? verifyWindow : nil)
    }

    /// How far back `refreshPending(vault:verify:)` looks by default: 7 days.
    public static let defaultVerifyWindow: TimeInterval = 7 * 86_400

    /// Polls until no record that can be checked is pending, or until the task is cancelled
    /// (which ends the loop without an error). Looks for newly recorded transactions at least
    /// every `cadence.shortest` seconds. Records without a provider or endpoint are reported
    /// once and then left alone.
    /// - Parameters:
    ///   - vault: only this vault's records; every vault when absent.
    ///   - onPass: called after each pass that checked something.
    public func watch(
        vault: String? = nil,
        onPass: @Sendable (RefreshSummary) async -> Void = { _ in }
    ) async throws {
        try await runner.watch(vault: vault, onPass: onPass)
    }
}
