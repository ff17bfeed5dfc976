import Foundation

/// Reads another process's memory on Linux (`/proc/PID/maps` and `/proc/PID/mem`), to look for
/// copies of a secret.
enum ProcessMemory {
    /// How many times `bytes` occur in the readable mappings of process `pid`; `nil` if its
    /// memory cannot be read.
    static func occurrences(of bytes: [UInt8], inProcess pid: pid_t) -> Int? {
        guard let maps = try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8) else { return nil }
        let memory = open("/proc/\(pid)/mem", O_RDONLY)
        guard memory >= 0 else { return nil }
        defer { close(memory) }
        let needle = Data(bytes)
        var count = 0
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, fields[1].hasPrefix("r") else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt64($0, radix: 16) }
            guard bounds.count == 2, bounds[1] > bounds[0], bounds[1] - bounds[0] <= 1 << 30 else { continue }
            var region = Data(count: Int(bounds[1] - bounds[0]))
            let read = region.withUnsafeMutableBytes { pread(memory, $0.baseAddress, $0.count, off_t(bounds[0])) }
            guard read > 0 else { continue }
            region = region.prefix(read)
            var start = region.startIndex
            while let found = region.range(of: needle, in: start..<region.endIndex) {
                count += 1
                start = found.upperBound
            }
        }
        return count
    }
}
