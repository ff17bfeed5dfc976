#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

/// Wall-clock timing on the monotonic clock.
enum Stopwatch {
    /// Seconds `body` took. Each timing starts after `sync()`, so that the kernel writing out
    /// what earlier phases left in the page cache does not land in this one.
    static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        sync()
        let clock = ContinuousClock()
        let start = clock.now
        try await body()
        return (clock.now - start).seconds
    }

    /// The median of `runs` timings of `body`, in seconds.
    static func median(runs: Int, _ body: () async throws -> Void) async rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<runs { times.append(try await seconds(body)) }
        return median(of: times)
    }

    /// `times` as the run's line lists them: `1.23/1.31/1.19 s`.
    static func listed(_ times: [Double]) -> String {
        times.map { String(format: "%.2f", $0) }.joined(separator: "/") + " s"
    }

    /// The median of `times`, which holds at least one.
    static func median(of times: [Double]) -> Double {
        let times = times.sorted()
        return times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
    }
}

extension Duration {
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
