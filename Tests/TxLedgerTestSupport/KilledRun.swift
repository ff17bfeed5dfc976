import Foundation
import Subprocess
import SystemPackage
import Testing

/// Runs `txledger` as a child process and kills it with SIGKILL at a chosen moment, as a phone
/// kills an app: no signal handler, no cleanup. swift-subprocess waits for it; the polling
/// suspends between looks, so the cooperative pool that other tests run on is never blocked.
enum KilledRun {
    enum Moment: Sendable, CustomStringConvertible {
        /// This long after the start.
        case after(TimeInterval)
        /// As soon as the ledger's write-ahead log holds this many bytes: inside its write.
        case walReaches(Int)
        /// As soon as `condition`, given the process id, holds (a file appears, a line is
        /// written), or after `TestLimits.hang`; the process may be looked at there before the
        /// kill.
        case when(@Sendable (pid_t) -> Bool)
        /// Never: it runs to its end.
        case never

        var description: String {
            switch self {
            case let .after(seconds): "after \(Int(seconds * 1000)) ms"
            case let .walReaches(bytes): "when the WAL reaches \(bytes) bytes"
            case .when: "when a condition holds"
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
        /// The largest size of the ledger's `-journal` file seen while it ran: a write in
        /// SQLite's rollback-journal mode keeps one (`LedgerDatabase.writeIntoEmpty`).
        let largestJournal: Int
        /// The largest peak resident memory (Linux's `VmHWM`) seen while it ran, in bytes; 0
        /// where `/proc` does not say.
        let peakResident: Int
    }

    /// - Parameters:
    ///   - environment: variables to set in a copy of this process's environment.
    ///   - output: where its standard output goes (a file, to read it while it runs); `nil`:
    ///     discarded.
    static func run(
        _ cli: CLI,
        _ arguments: [String],
        environment: [String: String] = [:],
        output: FileDescriptor? = nil,
        killAt moment: Moment
    ) async throws -> Outcome {
        try #require(
            FileManager.default.isExecutableFile(atPath: CLI.binary.path),
            "txledger is not built at \(CLI.binary.path)"
        )
        let (wal, journal) = (cli.db + "-wal", cli.db + "-journal")
        let start = Date()
        let overrides = Dictionary(
            uniqueKeysWithValues: environment.compactMap { key, value in
                Environment.Key(rawValue: key).map { ($0, Optional(value)) }
            }
        )
        let sink = try output ?? FileDescriptor.open("/dev/null", .writeOnly)
        defer { if output == nil { try? sink.close() } }
        let run = try await Subprocess.run(
            .path(FilePath(CLI.binary.path)),
            arguments: Arguments(["--db", cli.db] + arguments),
            environment: Environment.inherit.updating(overrides),
            input: .none,
            output: .fileDescriptor(sink, closeAfterSpawningProcess: false),
            error: .discarded
        ) { execution in
            // Polls the WAL's size until the moment comes or the process has ended by itself.
            var largest = 0
            var largestJournal = 0
            var resident = 0
            while !hasExited(execution.processIdentifier.value) {
                let size = (try? FileManager.default.attributesOfItem(atPath: wal))?[.size] as? Int
                largest = max(largest, size ?? 0)
                let journalSize = (try? FileManager.default.attributesOfItem(atPath: journal))?[.size] as? Int
                largestJournal = max(largestJournal, journalSize ?? 0)
                resident = max(resident, peakResident(of: execution.processIdentifier.value))
                let due: Bool =
                    switch moment {
                    case let .after(seconds): Date().timeIntervalSince(start) >= seconds
                    case let .walReaches(bytes): largest >= bytes
                    // A hang fails the test, not the suite.
                    case let .when(condition):
                        condition(execution.processIdentifier.value)
                            || Date().timeIntervalSince(start) > TestLimits.hang
                    // A hang fails the test, not the suite.
                    case .never: Date().timeIntervalSince(start) > TestLimits.hang
                    }
                if due {
                    try execution.send(signal: .kill)
                    return (sent: true, largest: largest, journal: largestJournal, resident: resident)
                }
                try await Task.sleep(nanoseconds: 500_000)
            }
            return (sent: false, largest: largest, journal: largestJournal, resident: resident)
        }
        let (sent, largest, largestJournal, resident) = run.closureResult
        let (killed, status): (Bool, Int32) =
            switch run.terminationStatus {
            case let .exited(code): (false, Int32(code))
            case let .signaled(signal): (sent && signal == SIGKILL, Int32(signal))
            }
        return Outcome(
            killed: killed,
            status: status,
            seconds: Date().timeIntervalSince(start),
            largestWAL: largest,
            largestJournal: largestJournal,
            peakResident: resident
        )
    }

    /// The `VmHWM` line of `/proc/PID/status`, in bytes, once the child runs `txledger` (0
    /// before, or if there is none). Between its fork and its exec the child is a copy of this
    /// test process (or shares its memory), whose peak it would report: one CI run read 616 MB
    /// there. The kernel names the task after the program once its new memory is in place, so a
    /// status that names `txledger` describes `txledger`'s own memory.
    private static func peakResident(of pid: pid_t) -> Int {
        guard let file = FileHandle(forReadingAtPath: "/proc/\(pid)/status"), let data = try? file.readToEnd() else {
            return 0
        }
        try? file.close()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        // The name is the program's file name, cut to the kernel's 15 bytes.
        let program = String(CLI.binary.lastPathComponent.utf8.prefix(15))!
        let name = lines.first { $0.hasPrefix("Name:") }?.dropFirst(5).trimmingCharacters(in: .whitespaces)
        guard name == program else { return 0 }
        let line = lines.first { $0.hasPrefix("VmHWM:") }
        let kilobytes = line?.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return kilobytes * 1024
    }

    /// Whether the child `pid` has ended, without reaping it (swift-subprocess does that).
    private static func hasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return true }
        return info._sifields._sigchld.si_pid != 0
    }
}
