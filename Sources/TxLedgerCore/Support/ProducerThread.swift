import Foundation

/// Elements made on a thread of their own, ahead of the thread that uses them, and handed over
/// in batches: reading and decoding a bundle, another ledger file or a JSON list takes about
/// as long as merging or writing what it yields, and this overlaps the two on two cores.
///
/// The consumer sees exactly what a sequential loop would: every element in the order it was
/// made, then the producer's error if it threw one, then the end. At most `aheadLimit` batches
/// wait, so memory stays bounded. The consumer calls `stop()` when it is done or fails: the
/// producer stops at its next element, and `stop()` returns once it has returned and let go
/// of what it held (a file, a read of a database). The consumer runs on a thread that may
/// block (a GRDB queue), never on Swift's cooperative pool.
package final class ProducerThread<Element>: @unchecked Sendable {
    /// Batches that may wait for the consumer.
    private static var aheadLimit: Int { 4 }

    private let batchSize: Int
    /// Set until the producer returns; then released, with everything it captured.
    private var produce: ((_ yield: (consuming Element) throws -> Void) throws -> Void)?

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
    /// turn; the elements reach `next()` in batches of `batchSize` (the last may be smaller).
    package init(
        name: String,
        batchSize: Int,
        produce: @escaping (_ yield: (consuming Element) throws -> Void) throws -> Void
    ) {
        precondition(batchSize > 0, "a batch holds at least one element")
        self.batchSize = batchSize
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
        batch.reserveCapacity(batchSize)
        do {
            // Each element is moved into its batch, not copied (a record holds tens of
            // references, each retained by a copy).
            try produce { (element: consuming Element) in
                batch.append(element)
                if batch.count == batchSize {
                    try hand(batch)
                    batch.removeAll(keepingCapacity: true)
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
