import Foundation

/// Runs blocking work (reading and decrypting a file, Argon2id, opening a database) on a thread
/// of its own and suspends the caller until it is done. Swift's cooperative pool has one thread
/// per core; work that blocks one of them stalls every task of the process, the app's included.
/// Database work goes through GRDB's own queues instead; this is for the rest.
package enum DedicatedThread {
    package static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result(catching: body)) }
            thread.name = "txledger.blocking"
            thread.start()
        }
    }
}
