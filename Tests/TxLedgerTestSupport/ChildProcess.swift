import Foundation
import Subprocess
import SystemPackage

/// Runs a program to its end and collects what it printed, through swift-subprocess: its pipes
/// and its wait never block a thread of Swift's cooperative pool, which the other tests of the
/// process share. A program still running after `TestLimits.hang` is killed, so a hang fails
/// its test, not the suite.
enum ChildProcess {
    struct Result: Sendable {
        /// The exit status, or the signal that ended it.
        let status: Int32
        let signalled: Bool
        let stdout: Data
        let stderr: Data
    }

    struct Hung: Error, CustomStringConvertible {
        let executable: String
        var description: String { "\(executable) ran longer than \(Int(TestLimits.hang)) s and was killed" }
    }

    /// Largest output a test reads from one run.
    static let outputLimit = 256 << 20

    /// - Parameter environment: variables to set (or, with `nil`, to remove) in a copy of this
    ///   process's environment.
    static func run(
        _ executable: URL,
        _ arguments: [String],
        stdin: Data? = nil,
        environment: [String: String?] = [:]
    ) async throws -> Result {
        let overrides = Dictionary(
            uniqueKeysWithValues: environment.compactMap { key, value in
                Environment.Key(rawValue: key).map { ($0, value) }
            }
        )
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                let run = try await Subprocess.run(
                    .path(FilePath(executable.path)),
                    arguments: Arguments(arguments),
                    environment: Environment.inherit.updating(overrides),
                    input: .data(stdin ?? Data()),
                    output: .data(limit: outputLimit),
                    error: .data(limit: outputLimit)
                )
                let (status, signalled): (Int32, Bool) =
                    switch run.terminationStatus {
                    case let .exited(code): (Int32(code), false)
                    case let .signaled(signal): (Int32(signal), true)
                    }
                return Result(
                    status: status,
                    signalled: signalled,
                    stdout: run.standardOutput,
                    stderr: run.standardError
                )
            }
            // Cancelling the run (when this ends first) kills the program.
            group.addTask {
                try await Task.sleep(nanoseconds: TestLimits.hangNanoseconds)
                return nil
            }
            defer { group.cancelAll() }
            guard let result = try await group.next() ?? nil else {
                throw Hung(executable: executable.lastPathComponent)
            }
            return result
        }
    }
}
