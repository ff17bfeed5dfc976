import Foundation
import TxLedgerCore
import TxLedgerStatus

/// Checks pending transactions against chain endpoints and writes the answers through the
/// ledger's status lattice.
///
/// - `refreshPending(vault:)`: one pass over every pending record, for app open,
///   pull-to-refresh and screen appear.
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

    /// Checks every pending record of `vault` (or of every vault) once, and every record whose
    /// failure was inferred within its chain's `EvidencePolicy.recheckInferredFor`.
    public func refreshPending(vault: String? = nil) async throws -> RefreshSummary {
        try await runner.refreshPending(vault: vault)
    }

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
