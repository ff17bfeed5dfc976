import Foundation

/// Reads another process's memory on Linux (`/proc/PID/maps` and `/proc/PID/mem`), to look for
/// copies of a secret.
enum ProcessMemory {
    /// How many times `bytes` occur in the readable mappings of process `pid`; `nil` if its
    /// memory cannot be read.
    static func occurrences(of bytes: [UInt8], inProcess pid: pid_t) -> Int? {
        // Read to its end: /proc files say their size is 0, which a whole-file read may trust.
        guard let mapsFile = FileHandle(forReadingAtPath: "/proc/\(pid)/maps"),
            let mapsData = try? mapsFile.readToEnd()
        else { return nil }
        try? mapsFile.close()
        let maps = String(decoding: mapsData, as: UTF8.self)
        let memory = open("/proc/\(pid)/mem", O_RDONLY)
        guard memory >= 0 else { return nil }
        defer { close(memory) }
        var count = 0
        var pagesRead = 0
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, fields[1].hasPrefix("r") else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt64($0, radix: 16) }
            guard bounds.count == 2, bounds[1] > bounds[0], bounds[1] - bounds[0] <= 1 << 30 else { continue }
            // Page by page: a page that cannot be read leaves the others readable.
            var region = Data(count: Int(bounds[1] - bounds[0]))
            region.withUnsafeMutableBytes { buffer in
                for offset in stride(from: 0, to: buffer.count, by: 4096) {
                    let read = pread(
                        memory,
                        buffer.baseAddress! + offset,
                        min(4096, buffer.count - offset),
                        off_t(bounds[0]) + off_t(offset)
                    )
                    if read > 0 { pagesRead += 1 }
                }
            }
            // By hand: Foundation's Data.range(of:) misses a match that ends at the data's end.
            region.withUnsafeBytes { haystack in
                guard haystack.count >= bytes.count else { return }
                for start in 0...(haystack.count - bytes.count) where haystack[start] == bytes[0] {
                    if bytes.indices.allSatisfy({ haystack[start + $0] == bytes[$0] }) { count += 1 }
                }
            }
        }
        return pagesRead > 0 ? count : nil
    }
}
