import Foundation
import TxLedgerCore

/// Which endpoints a status refresh asks, through which providers, and how hard.
///
/// ```swift
/// var configuration = RefreshConfiguration()
/// try configuration.addEndpoint(parsing: "ethereum=https://rpc.example/KEY")
/// let refresher = StatusRefresher(ledger: ledger, configuration: configuration)
/// let summary = try await refresher.refreshPending(vault: "main")
/// ```
public struct RefreshConfiguration: Sendable {
    /// Endpoints by key: a canonical chain id (`ethereum`, `bitcoin`, `eip155:324`), and
    /// `thorchain` / `mayachain` for those protocols' swaps.
    public var endpoints: [String: StatusEndpoint] = [:]
    /// Tried in order; the first whose `endpointKey(for:)` answers checks the record. An app's
    /// own providers go first.
    public var providers: [any StatusProvider] = RefreshConfiguration.builtInProviders
    /// Checks in flight at once, over all endpoints (below 1 counts as 1). Each check has at
    /// most one request in flight, so this bounds requests too.
    public var maxInFlight = 5
    /// Checks in flight at once at one endpoint, unless the endpoint sets its own bound (below
    /// 1 counts as 1).
    public var maxInFlightPerEndpoint = 5
    /// Seconds before a request without an answer counts as timed out.
    public var timeout: TimeInterval = 10
    /// When the polling loop checks each record again.
    public var cadence = RefreshCadence.standard
    /// What answers must show before they are written, for every chain not in `evidenceByChain`.
    public var evidence = EvidencePolicy()
    /// Policies of single chains, by canonical chain id (`ethereum`, `eip155:324`), e.g. more
    /// confirmations on a chain that reorganises often.
    public var evidenceByChain: [String: EvidencePolicy] = [:]

    public static let builtInProviders: [any StatusProvider] = [
        THORChainStatusProvider.thorchain, THORChainStatusProvider.mayachain,
        EVMStatusProvider(), EsploraStatusProvider(), SolanaStatusProvider(), CosmosStatusProvider(),
    ]

    public init() {}

    /// Adds `CHAIN=URL` (the CLI's `--endpoint` form). The chain may be any spelling
    /// `Chain(parsing:)` accepts (`eth`, `0x1`, `eip155:1`); it is stored by its canonical id.
    /// - Throws: `LedgerError.invalidInput` for a missing `=`, an unknown chain or a bad URL.
    public mutating func addEndpoint(parsing text: String) throws {
        guard let equals = text.firstIndex(of: "=") else {
            throw LedgerError.invalidInput(
                field: "endpoint",
                reason: "expected CHAIN=URL, e.g. ethereum=http://127.0.0.1:8545"
            )
        }
        let chain = try Chain(parsing: text[..<equals].trimmingCharacters(in: .whitespaces))
        endpoints[chain.id] = try StatusEndpoint(parsing: String(text[text.index(after: equals)...]))
    }

    /// Adds every `CHAIN=URL` line of an endpoints file; blank lines and `#` comments are skipped.
    /// - Throws: `LedgerError.invalidInput` naming the first bad line's number (never its URL).
    public mutating func addEndpoints(fileContents: String) throws {
        for (number, line) in fileContents.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty || text.hasPrefix("#") { continue }
            do {
                try addEndpoint(parsing: text)
            } catch let error as LedgerError where error.code == .invalidInput {
                throw LedgerError.invalidInput(
                    field: "\(error.field ?? "endpoint") on line \(number + 1)",
                    reason: error.reason ?? "",
                    underlying: error
                )
            }
        }
    }

    /// Who checks `record` and where: the provider, its endpoint key, and the endpoint if one
    /// is configured.
    func route(_ record: TransactionRecord) -> Route? {
        for provider in providers {
            if let key = provider.endpointKey(for: record) {
                return Route(provider: provider, key: key, endpoint: endpoints[key])
            }
        }
        return nil
    }

    struct Route: Sendable {
        let provider: any StatusProvider
        let key: String
        let endpoint: StatusEndpoint?
    }

    /// The evidence policy of `record`'s chain.
    func evidence(for record: TransactionRecord) -> EvidencePolicy {
        evidenceByChain[record.chain.id] ?? evidence
    }

    func limit(at endpoint: StatusEndpoint) -> Int {
        max(endpoint.maxInFlight ?? maxInFlightPerEndpoint, 1)
    }
}
