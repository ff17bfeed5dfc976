import ArgumentParser
import Foundation

/// `txledger-bench`: measures the ledger against the physical limits, in one run (README,
/// "Benchmarks"). Build and run it in release mode: `scripts/bench.sh`.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "txledger-bench",
        abstract: "Measure record, merge, bundle, delta, query and memory against raw SQLite and libsodium baselines.",
        discussion:
            "Ratios are our cost over the baseline's, measured in the same run: 1 is the limit, lower is better.",
        subcommands: [RunCommand.self, ImportPeakCommand.self],
        defaultSubcommand: RunCommand.self
    )
}
