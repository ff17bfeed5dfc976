import Foundation
import TxLedgerCore
import TxLedgerStore

/// The thread a merge works out its batches on (`BatchMerge`: decoding the stored rows, joining,
/// encoding what changed) while the write transaction's thread reads and writes SQLite: the
/// transaction hands batch k over and writes batch k - 1 meanwhile. The worker never touches
/// the database; it encodes with an encoder the store lent it for the merge
/// (`RecordStore.lendEncoder`), and the store writes the entries it adds.
final class MergeWorker: @unchecked Sendable {
    private let queue = DispatchQueue(label: "txledger.merge-worker")
    /// Touched only on `queue`.
    private var encoder: FrameEncoder

    init(encoder: FrameEncoder) {
        self.encoder = encoder
    }

    /// Starts working out a batch (`BatchMerge.init`); its `Job` waits for the outcome.
    func start(
        _ batch: [RecordState],
        stored rows: [StoredRow],
        tables: FrameTables,
        path: String,
        vault: String,
        numbers: RowNumbers,
        comparing: Int64?
    ) -> Job {
        let job = Job()
        queue.async { [self] in
            job.finish(
                Result {
                    try BatchMerge(
                        batch,
                        stored: rows,
                        tables: tables,
                        path: path,
                        vault: vault,
                        numbers: numbers,
                        comparing: comparing,
                        encoder: &encoder
                    )
                }
            )
        }
        return job
    }

    /// Lets go of a batch's merge once it is written: its states and frames are freed here,
    /// not on the writer's thread.
    func dispose(_ merged: consuming BatchMerge) {
        queue.async { [merged] in _ = merged }
    }

    /// Returns once every batch started is worked out (those of a failed merge included).
    func waitUntilIdle() {
        queue.sync {}
    }

    /// One batch being worked out.
    final class Job: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        /// Set once, on the worker's queue, before `done` is signalled.
        private var outcome: Result<BatchMerge, any Error>?

        fileprivate func finish(_ outcome: Result<BatchMerge, any Error>) {
            self.outcome = outcome
            done.signal()
        }

        /// The batch's merge, waiting for it; called once (the job lets go of it).
        func result() throws -> BatchMerge {
            done.wait()
            defer { outcome = nil }
            return try outcome!.get()
        }
    }
}
