import Foundation
import Testing

/// Runs the built `txledger` binary, as a person or a script would.
struct CLI {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String

        var stderrLines: [Substring] { stderr.split(separator: "\n") }
    }

    /// `$TXLEDGER_BIN`, else the txledger built next to the running tests (scripts/test.sh
    /// builds it), whatever the build configuration.
    static let binary: URL = {
        if let explicit = ProcessInfo.processInfo.environment["TXLEDGER_BIN"] { return URL(fileURLWithPath: explicit) }
        #if canImport(Darwin)
        let products =
            Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL.deletingLastPathComponent()
            ?? Bundle.main.bundleURL
        #else
        let products = Bundle.main.bundleURL
        #endif
        return products.appendingPathComponent("txledger")
    }()

    let db: String

    @discardableResult
    func run(
        _ arguments: [String],
        stdin: Data? = nil,
        environment extra: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Result {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.binary.path),
            "txledger is not built at \(Self.binary.path): run scripts/test.sh, or swift build first",
            sourceLocation: sourceLocation
        )
        var environment: [String: String?] = ["TXLEDGER_DB": nil]
        environment.merge(extra) { $1 }
        let result = try await ChildProcess.run(
            Self.binary,
            ["--db", db] + arguments,
            stdin: stdin,
            environment: environment
        )
        return Result(
            status: result.status,
            stdout: String(decoding: result.stdout, as: UTF8.self),
            stderr: String(decoding: result.stderr, as: UTF8.self)
        )
    }
}

extension CLI {
    /// `record send` arguments for a send in vault `main` whose hash is made from `n` (1...9).
    static func send(_ n: Int) -> [String] {
        [
            "record", "send", "--vault", "main", "--chain", "ethereum", "--hash", Fixture.evmHash(n), "--to",
            Fixture.evmAddress(2),
            "--amount", "1.5", "--token", "ETH", "--at", "2025-07-0\(n)T00:00:00Z",
        ]
    }

    /// Every record, hidden ones included, as `list --json` prints them.
    func history() async throws -> String {
        try await run(["list", "--json", "--include-hidden", "--limit", "1000"]).stdout
    }
}
