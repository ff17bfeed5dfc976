import Foundation

/// The one deadline of the suite: how long anything a test waits for (a command, a server, a
/// child process) may take before the test calls it hung. It is far above what any step takes
/// on one loaded core, so it only ends what would otherwise never end; no test measures speed.
enum TestLimits {
    static let hang: TimeInterval = 300
    static var hangNanoseconds: UInt64 { UInt64(hang * 1_000_000_000) }
}
