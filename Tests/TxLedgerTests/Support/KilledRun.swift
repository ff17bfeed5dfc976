import Foundation
import Testing

/// Runs `txledger` as a child process and kills it with SIGKILL at a chosen moment, as a phone
/// kills an app: no signal handler, no cleanup. Waiting and polling happen on a thread of
/// their own, so the cooperative pool that other tests run on is never blocked.
enum KilledRun {
    enum Moment: Sendable, CustomStringConvertible {
        /// This long after the start.
        case after(TimeInterval)
        /// As soon as the ledger's write-ahead log holds this many bytes: inside its write.
        case walReaches(Int)
        /// Never: it runs to its end.
        case never

        var description: String {
            switch self {
            case let .after(seconds): "after \(Int(seconds * 1000)) ms"
            case let .walReaches(bytes): "when the WAL reaches \(bytes) bytes"
            case .never: "never"
            }
        }
    }

    struct Outcome: Sendable {
        /// Whether the kill came before the process ended by itself.
        let killed: Bool
        /// Its exit status if it ended by itself.
        let status: Int32
        let seconds: TimeInterval
        /// The largest size of the ledger's `-wal` file seen while it ran.
        let largestWAL: Int
    }

    static func run(_ cli: CLI, _ arguments: [String], killAt moment: Moment) async throws -> Outcome {
        try #require(FileManager.default.isExecutableFile(atPath: CLI.binary.path), "txledger is not built at \(CLI.binary.path)")
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["--db", cli.db] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let wal = cli.db + "-wal"
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                do {
                    let start = Date()
                    try process.run()
                    var largest = 0, killed = false
                    while process.isRunning {
                        let size = (try? FileManager.default.attributesOfItem(atPath: wal))?[.size] as? Int
                        largest = max(largest, size ?? 0)
                        let due: Bool = switch moment {
                        case let .after(seconds): Date().timeIntervalSince(start) >= seconds
                        case let .walReaches(bytes): largest >= bytes
                        case .never: Date().timeIntervalSince(start) > 120 // a hang fails the test, not the suite
                        }
                        if due {
                            killed = kill(process.processIdentifier, SIGKILL) == 0 && process.isRunning
                            break
                        }
                        usleep(500)
                    }
                    process.waitUntilExit()
                    killed = killed && process.terminationReason == .uncaughtSignal
                    continuation.resume(returning: Outcome(killed: killed, status: process.terminationStatus,
                                                           seconds: Date().timeIntervalSince(start), largestWAL: largest))
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }
}
