import Foundation

/// A task executor with one thread of its own. Tasks that prefer it (`Task(executorPreference:)`),
/// their child tasks and the default actors they call run there, never on Swift's cooperative
/// pool: the loopback servers keep answering while other tests' blocking work fills the pool.
@available(macOS 15.0, iOS 18.0, *)
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // `jobs` is guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    init(name: String) {
        let thread = Thread { self.serve() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func serve() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

@available(macOS 15.0, iOS 18.0, *)
extension ThreadExecutor {
    /// The thread every loopback server of the tests runs on.
    static let servers = ThreadExecutor(name: "txledger-tests.servers")
}

/// Starts `body` on the servers' thread where task executors exist (Linux, macOS 15), else as
/// a plain task.
func serverTask<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Task<T, any Error> {
    if #available(macOS 15.0, iOS 18.0, *) {
        return Task(executorPreference: ThreadExecutor.servers) { try await body() }
    }
    return Task { try await body() }
}
