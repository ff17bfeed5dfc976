import ArgumentParser
import Foundation
import TxLedger

struct RefreshCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Check pending transactions against chain endpoints.",
        discussion: """
            One pass by default: prints what changed, what is still pending and what could not be \
            checked. With --watch, polls on the cadence of Specs/status-tracking.md and prints \
            changes as they come, until nothing that can be checked is pending (or Ctrl-C). \
            Endpoints are CHAIN=URL: an EVM JSON-RPC URL for EVM chains, an Esplora base URL for \
            bitcoin-like chains, a Solana RPC URL, a Cosmos REST URL, and thorchain= / mayachain= \
            node URLs for those swaps. Example: txledger refresh --endpoint ethereum=http://127.0.0.1:8545
            """
    )

    @ParentCommand var root: TxLedgerCommand
    @Option(help: "Only this vault's transactions (default: every vault).") var vault: String?
    @Option(
        name: .customLong("endpoint"),
        help: ArgumentHelp("An endpoint, CHAIN=URL; repeatable.", valueName: "chain=url")
    )
    var endpoints: [String] = []
    @Option(
        name: .customLong("endpoints"),
        help: ArgumentHelp("A file of CHAIN=URL lines (# comments).", valueName: "file")
    )
    var endpointsFile: String?
    @Flag(help: "Keep polling until nothing is pending.") var watch = false
    @Flag(
        help: "Also check again the outcomes other devices said of transactions broadcast within --verify-days."
    )
    var verify = false
    @Option(help: "How many days back --verify looks.") var verifyDays = 7
    @Flag(help: "JSON for scripts (with --watch: one line per pass).") var json = false
    @Option(help: "Seconds before a request counts as timed out.") var timeout: Double = 10
    @Option(help: "Checks in flight at once, overall and per endpoint.") var maxInFlight: Int = 5
    @Option(
        help: ArgumentHelp(
            "Blocks deep a receipt must be before it confirms: N for every chain or CHAIN=N; repeatable (default 1).",
            valueName: "[chain=]n"
        )
    )
    var confirmations: [String] = []
    @Option(
        help: ArgumentHelp(
            "Blocks a nonce must have been used by another transaction before a drop is inferred: N or CHAIN=N; repeatable (default 3).",
            valueName: "[chain=]n"
        )
    )
    var droppedAfter: [String] = []

    func validate() throws {
        if endpoints.isEmpty && endpointsFile == nil {
            throw ValidationError("give --endpoint CHAIN=URL (repeatable) or --endpoints FILE")
        }
        if timeout <= 0 { throw ValidationError("--timeout must be more than 0 seconds") }
        if maxInFlight < 1 { throw ValidationError("--max-in-flight must be at least 1") }
        if !(1...3650).contains(verifyDays) { throw ValidationError("--verify-days must be from 1 to 3650") }
        if verify && watch { throw ValidationError("--verify checks once: give it without --watch") }
    }

    func run(on ledger: Ledger) async throws {
        let refresher = StatusRefresher(ledger: ledger, configuration: try configuration())
        if watch {
            try await refresher.watch(vault: vault) { summary in
                report(RefreshReport(summary), compact: true)
            }
            if !json { print("nothing left to check") }
        } else {
            let summary = try await refresher.refreshPending(
                vault: vault,
                verify: verify,
                verifyWindow: TimeInterval(verifyDays) * 86_400
            )
            report(RefreshReport(summary), compact: false)
        }
    }

    private func configuration() throws -> RefreshConfiguration {
        var configuration = RefreshConfiguration()
        configuration.timeout = timeout
        configuration.maxInFlight = maxInFlight
        configuration.maxInFlightPerEndpoint = maxInFlight
        if let endpointsFile {
            let text: String
            do {
                text = try String(contentsOfFile: endpointsFile, encoding: .utf8)
            } catch {
                throw LedgerError.invalidInput(field: "--endpoints", reason: "cannot read '\(endpointsFile)'")
            }
            try configuration.addEndpoints(fileContents: text)
        }
        for endpoint in endpoints { try configuration.addEndpoint(parsing: endpoint) }
        try set(\.confirmations, from: confirmations, option: "--confirmations", in: &configuration)
        try set(\.droppedAfterBlocks, from: droppedAfter, option: "--dropped-after", in: &configuration)
        return configuration
    }

    /// Applies `N` (every chain) and `CHAIN=N` values to one figure of the evidence policies:
    /// the values for every chain first, so that a chain's own policy starts from them.
    private func set(
        _ figure: WritableKeyPath<EvidencePolicy, Int>,
        from values: [String],
        option: String,
        in configuration: inout RefreshConfiguration
    ) throws {
        func blocks(_ text: some StringProtocol) throws -> Int {
            guard let n = Int(text), n >= 1 else {
                throw LedgerError.invalidInput(
                    field: option,
                    reason: "'\(text.prefix(20))' is not a number of blocks (1 or more)"
                )
            }
            return n
        }
        for value in values where !value.contains("=") {
            let n = try blocks(value)
            configuration.evidence[keyPath: figure] = n
            for chain in configuration.evidenceByChain.keys {
                configuration.evidenceByChain[chain]?[keyPath: figure] = n
            }
        }
        for value in values {
            guard let equals = value.firstIndex(of: "=") else { continue }
            let chain = try Chain(parsing: value[..<equals].trimmingCharacters(in: .whitespaces)).id
            var policy = configuration.evidenceByChain[chain] ?? configuration.evidence
            policy[keyPath: figure] = try blocks(value[value.index(after: equals)...])
            configuration.evidenceByChain[chain] = policy
        }
    }

    /// Prints a pass: in full for one pass; with --watch only changes and problems, flushed at
    /// once so a pipe sees each pass as it happens.
    private func report(_ report: RefreshReport, compact: Bool) {
        if json {
            // Plain structs of strings: encoding them cannot fail.
            print(try! JSONOutput.string(report, pretty: !compact))
        } else {
            for line in report.lines(includingPending: !compact) { print(line) }
            if !compact { print(report.countLine) }
        }
        fflush(nil)
    }
}
