import Foundation
import TxLedgerCore

/// The thread a write transaction hands work that encodes stored frames to (a merge's batches:
/// `BatchMerge`; a recorded batch's new records) while the transaction's thread reads and
/// writes SQLite: the transaction hands work k over and writes the outcome of k - 1
/// meanwhile. The worker never touches the database; it encodes with an encoder the store lent
/// it (`RecordStore.lendEncoder`), and the store writes the entries it adds (`addEntries`).
package final class FrameWorker: @unchecked Sendable {
    private let queue: DispatchQueue
    /// Touched only on `queue`.
    private var encoder: FrameEncoder

    /// - Parameter label: the thread's name, as debuggers show it.
    package init(label: String, encoder: FrameEncoder) {
        queue = DispatchQueue(label: label)
        self.encoder = encoder
    }

    /// Starts `work` with the lent encoder, after the work started before; its `Job` waits for
    /// the outcome.
    package func start<Outcome: Sendable>(
        _ work: @escaping @Sendable (inout FrameEncoder) throws -> Outcome
    ) -> Job<Outcome> {
        let job = Job<Outcome>()
        queue.async { [self] in job.finish(Result { try work(&encoder) }) }
        return job
    }

    /// Lets go of an outcome once it is written: its states and frames are freed here, not on
    /// the writer's thread.
    package func dispose<Outcome: Sendable>(_ outcome: consuming Outcome) {
        queue.async { [outcome] in _ = outcome }
    }

    /// Returns once all the work started has ended (that of a failed transaction included).
    package func waitUntilIdle() {
        queue.sync {}
    }

    /// One piece of work under way.
    package final class Job<Outcome: Sendable>: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        /// Set once, on the worker's queue, before `done` is signalled.
        private var outcome: Result<Outcome, any Error>?

        fileprivate func finish(_ outcome: Result<Outcome, any Error>) {
            self.outcome = outcome
            done.signal()
        }

        /// The work's outcome, waiting for it; called once (the job lets go of it).
        package func result() throws -> Outcome {
            done.wait()
            defer { outcome = nil }
            return try outcome!.get()
        }
    }
}
