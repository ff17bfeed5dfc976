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
        let process = Process()
        process.executableURL = executable
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
                    "txledger \(arguments.prefix(3).joined(separator: " ")) exited \(process.terminationStatus)"
            )
        }
        return seconds
    }
}
