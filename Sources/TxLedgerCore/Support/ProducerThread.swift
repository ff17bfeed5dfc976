import Foundation

/// Elements made on a thread of their own, ahead of the thread that uses them, and handed over
/// in batches: reading and decoding a bundle, another ledger file or a JSON list takes about
/// as long as merging or writing what it yields, and this overlaps the two on two cores.
///
/// The consumer sees exactly what a sequential loop would: every element in the order it was
/// made, then the producer's error if it threw one, then the end. At most `aheadLimit` batches
/// wait, each within its `BatchLimit` (a record of outside input counts its frame's bytes), so
/// memory stays bounded whatever the elements hold. The consumer calls `stop()` when it is
/// done or fails: the producer stops at its next element, and `stop()` returns once it has
/// returned and let go of what it held (a file, a read of a database). The consumer runs on
/// a thread that may block (a GRDB queue), never on Swift's cooperative pool.
package final class ProducerThread<Element>: @unchecked Sendable {
    /// Batches that may wait for the consumer.
    private static var aheadLimit: Int { 4 }

    private let limit: BatchLimit
    /// Set until the producer returns; then released, with everything it captured.
    private var produce: ((_ yield: (consuming Element, _ bytes: Int) throws -> Void) throws -> Void)?

    /// Guards everything below.
    private let condition = NSCondition()
    private var ready: [[Element]] = []
    private var finished = false
    private var failure: (any Error)?
    private var stopped = false
    private var exited = false

    /// Thrown into the producer, at its next element, once the consumer has stopped.
    private struct Stopped: Error {}

    /// Starts `produce` on a thread named `name`. It calls its argument with each element in
    /// turn and the bytes it holds (0: counted by number only); the elements reach `next()` in
    /// batches as full as `limit` lets them be (the last may be less).
    package init(
        name: String,
        limit: BatchLimit,
        produce: @escaping (_ yield: (consuming Element, _ bytes: Int) throws -> Void) throws -> Void
    ) {
        self.limit = limit
        self.produce = produce
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// The next batch, waiting for it; `nil` after the last. A consumer loops over each batch in
    /// its own code, where the loop is made for its element type (a loop in this generic class
    /// ran unspecialized: it moved each element through an allocation and copied it).
    /// - Throws: what the producer threw, once every element it made before has been returned.
    package func next() throws -> [Element]? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !finished && failure == nil { condition.wait() }
        guard ready.isEmpty else {
            condition.broadcast()
            return ready.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the producer (the consumer is done, or failed) and waits until it has returned.
    package func stop() {
        condition.lock()
        defer { condition.unlock() }
        stopped = true
        condition.broadcast()
        while !exited { condition.wait() }
    }

    private func run() {
        produceAll()
        condition.lock()
        defer { condition.unlock() }
        produce = nil
        exited = true
        condition.broadcast()
    }

    private func produceAll() {
        guard let produce else { return }
        var batch: [Element] = []
        batch.reserveCapacity(limit.count)
        var bytes = 0
        do {
            // Each element is moved into its batch, not copied (a record holds tens of
            // references, each retained by a copy).
            try produce { (element: consuming Element, size: Int) in
                batch.append(element)
                bytes += size
                if limit.isReached(count: batch.count, bytes: bytes) {
                    try hand(batch)
                    batch.removeAll(keepingCapacity: true)
                    bytes = 0
                }
            }
            if !batch.isEmpty { try hand(batch) }
            end(failure: nil)
        } catch is Stopped {
            return
        } catch {
            if !batch.isEmpty { try? hand(batch) }
            end(failure: error)
        }
    }

    private func hand(_ batch: [Element]) throws {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= Self.aheadLimit && !stopped { condition.wait() }
        guard !stopped else { throw Stopped() }
        ready.append(batch)
        condition.broadcast()
    }

    private func end(failure: (any Error)?) {
        condition.lock()
        defer { condition.unlock() }
        if let failure { self.failure = failure } else { finished = true }
        condition.broadcast()
    }
}
