import Foundation

/// Yrs (the Rust Yjs) merging merge.100k's shape in memory, run beside the bench through pycrdt
/// by `scripts/yrs-merge.py` (issue #36's baseline for `import`): the median of three applies.
enum YrsBaseline {
    /// Seconds Yrs takes to merge `records` new and changed records into as many, or `nil` (with
    /// the reason on stdout) when python3 or pycrdt is not there.
    static func seconds(records: Int, script: String) async throws -> Double? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "\(records)", "3"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            print("    (no Yrs baseline: cannot run python3)")
            return nil
        }
        // Read to the end on a thread of its own, then wait for the exit there too.
        let text = await withCheckedContinuation { (done: CheckedContinuation<String, Never>) in
            Thread {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                done.resume(returning: String(decoding: data, as: UTF8.self))
            }.start()
        }
        guard process.terminationStatus == 0, let seconds = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            print("    (no Yrs baseline: \(script) failed; pip install pycrdt)")
            return nil
        }
        return seconds
    }
}
