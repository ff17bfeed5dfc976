import Foundation

/// The `txledger` command beside this benchmark's executable (a release build of both:
/// `scripts/bench.sh` builds them), run as a whole process.
struct CLIProcess {
    let executable: URL

    /// The `txledger` next to this executable.
    /// - Throws: `BenchFailure` if it was not built.
    init() throws {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        executable = here.appendingPathComponent("txledger")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw BenchFailure(
                description: "no txledger beside txledger-bench: swift build -c release --product txledger"
            )
        }
    }

    /// Seconds a `txledger` process took with `arguments` (its output to `output`, if given),
    /// from start to exit.
    /// - Throws: `BenchFailure` if it exits with a status other than 0.
    func seconds(_ arguments: [String], output: String? = nil) async throws -> Double {
        try await seconds(running: executable, arguments, output: output, named: arguments)
    }

    /// What a whole `txledger` process used: its seconds from start to exit and, where GNU time
    /// can tell (`/usr/bin/time`, Linux), its peak resident memory and the processor seconds
    /// of all its threads (user and system), which the kernel counts when it exits.
    struct Usage {
        let seconds: Double
        let peakMB: Double?
        let cpuSeconds: Double?
    }

    /// What a `txledger` process with `arguments` used (`Usage`); `scratch` is a file for GNU
    /// time's answer.
    func usage(_ arguments: [String], scratch: String) async throws -> Usage {
        let time = URL(fileURLWithPath: "/usr/bin/time")
        #if os(Linux)
        let gnuTime = FileManager.default.isExecutableFile(atPath: time.path)
        #else
        let gnuTime = false
        #endif
        guard gnuTime else { return Usage(seconds: try await seconds(arguments), peakMB: nil, cpuSeconds: nil) }
        let seconds = try await seconds(
            running: time,
            ["-f", "%M %U %S", "-o", scratch, executable.path] + arguments,
            output: nil,
            named: arguments
        )
        let answer = (try? String(contentsOfFile: scratch, encoding: .utf8)) ?? ""
        let figures = (answer.split(separator: "\n").last ?? "").split(separator: " ").compactMap { Double($0) }
        guard figures.count == 3 else { return Usage(seconds: seconds, peakMB: nil, cpuSeconds: nil) }
        return Usage(seconds: seconds, peakMB: figures[0] / 1024, cpuSeconds: figures[1] + figures[2])
    }

    private func seconds(
        running program: URL,
        _ arguments: [String],
        output: String?,
        named: [String]
    ) async throws -> Double {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: nil),
                let file = FileHandle(forWritingAtPath: output)
            else { throw BenchFailure(description: "cannot write \(output)") }
            process.standardOutput = file
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        // Waiting through `terminationHandler`: `waitUntilExit()` spins its run loop on Linux,
        // which took a whole core from the two the timed process has.
        let seconds = try await Stopwatch.seconds {
            try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
                process.terminationHandler = { _ in done.resume() }
                do {
                    try process.run()
                } catch {
                    done.resume(throwing: error)
                }
            }
        }
        guard process.terminationStatus == 0 else {
            throw BenchFailure(
                description:
                    "txledger \(named.prefix(3).joined(separator: " ")) exited \(process.terminationStatus)"
            )
        }
        return seconds
    }
}
