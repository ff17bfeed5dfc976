import Foundation

/// Peak resident memory of a bundle import, measured in a child process (this executable's
/// hidden `import-peak` command) so that nothing else the run did counts.
enum ImportPeak {
    struct Result: Codable {
        /// The child's peak before the import (the ledger opened, the key read), and during it.
        let beforeBytes: Int
        let peakBytes: Int
        let seconds: Double

        var beforeMB: Double { Double(beforeBytes) / 1_048_576 }
        var peakMB: Double { Double(peakBytes) / 1_048_576 }
    }

    static func measure(ledger: String, bundle: String, keyFile: String) throws -> Result {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0])
        child.arguments = ["import-peak", "--ledger", ledger, "--bundle", bundle, "--key-file", keyFile]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        guard child.terminationStatus == 0 else {
            throw BenchFailure(description: "import-peak exited with \(child.terminationStatus)")
        }
        return try JSONDecoder().decode(Result.self, from: data)
    }

    /// This process's peak resident memory so far, in bytes. On Linux it is `VmHWM`, the peak of
    /// this program's own memory: `getrusage`'s `ru_maxrss` there keeps the peak of the process
    /// image before `exec` (the parent's, forked).
    static func residentPeak() -> Int {
        #if canImport(Darwin)
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)  // bytes on Darwin
        #else
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024  // "VmHWM:   123456 kB"
        #endif
    }
}
