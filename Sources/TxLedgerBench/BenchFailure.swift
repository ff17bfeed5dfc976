/// A scenario whose outcome is not what it set up (a benchmark of a broken run measures nothing).
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
}
