import Foundation
import TxLedger

/// A progress line on stderr for long exports and imports, only when stderr is a terminal:
/// `verifying 42%`, rewritten in place, ended by a line break at 100%.
final class ProgressLine: @unchecked Sendable {
    // @unchecked: `lastShown` is only touched under `lock`.
    private let lock = NSLock()
    private var lastShown: (BundleProgress.Phase, Int)?

    /// A reporter to pass to the library, or `nil` when stderr is not a terminal.
    static func reporter() -> (@Sendable (BundleProgress) -> Void)? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        let line = ProgressLine()
        return { line.show($0) }
    }

    private func show(_ progress: BundleProgress) {
        let percent = progress.total > 0 ? min(100, progress.completed * 100 / progress.total) : 100
        lock.lock()
        defer { lock.unlock() }
        guard lastShown.map({ $0.0 != progress.phase || $0.1 != percent }) ?? true else { return }
        lastShown = (progress.phase, percent)
        let label =
            switch progress.phase {
            case .exporting: "exporting"
            case .verifying: "verifying"
            case .merging: "merging"
            }
        FileHandle.standardError.write(Data("\r\(label) \(percent)%\(percent == 100 ? "\n" : "")".utf8))
    }
}
