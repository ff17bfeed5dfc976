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

    /// `$TXLEDGER_BIN`, else `.build/debug/txledger` of this package (scripts/test.sh builds it).
    static let binary: URL = {
        if let explicit = ProcessInfo.processInfo.environment["TXLEDGER_BIN"] { return URL(fileURLWithPath: explicit) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/txledger")
    }()

    let db: String

    @discardableResult
    func run(_ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:],
             sourceLocation: SourceLocation = #_sourceLocation) async throws -> Result {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path),
                     "txledger is not built at \(Self.binary.path): run scripts/test.sh, or swift build first", sourceLocation: sourceLocation)
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["--db", db] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "TXLEDGER_DB")
        environment.merge(extra) { $1 }
        process.environment = environment
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // A command that never ends (a --watch that keeps polling) fails the test, not the suite.
        let watchdog = Task {
            try await Task.sleep(nanoseconds: 120_000_000_000)
            process.terminate()
        }
        let (o, e) = await Self.outputs(of: process, out, err)
        watchdog.cancel()
        return Result(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }
}

extension CLI {
    /// Reads both pipes while the process runs (so a large output cannot block it) and waits
    /// for it to exit, on threads of their own: blocking calls on Swift's cooperative pool (two
    /// threads on a two-core machine) would starve the loopback servers a test runs in-process.
    static func outputs(of process: Process, _ out: Pipe, _ err: Pipe) async -> (Data, Data) {
        await withCheckedContinuation { continuation in
            let stderr = DataBox()
            let stderrRead = DispatchSemaphore(value: 0)
            Thread {
                stderr.data = err.fileHandleForReading.readDataToEndOfFile()
                stderrRead.signal()
            }.start()
            Thread {
                let stdout = out.fileHandleForReading.readDataToEndOfFile()
                stderrRead.wait()
                process.waitUntilExit()
                continuation.resume(returning: (stdout, stderr.data))
            }.start()
        }
    }

    /// `record send` arguments for a send in vault `main` whose hash is made from `n` (1...9).
    static func send(_ n: Int) -> [String] {
        ["record", "send", "--vault", "main", "--chain", "ethereum", "--hash", Fixture.evmHash(n), "--to", Fixture.evmAddress(2),
         "--amount", "1.5", "--token", "ETH", "--at", "2025-07-0\(n)T00:00:00Z"]
    }

    /// Every record, hidden ones included, as `list --json` prints them.
    func history() async throws -> String {
        try await run(["list", "--json", "--include-hidden", "--limit", "1000"]).stdout
    }
}

/// Data written by one thread and read by another after a semaphore orders them.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
