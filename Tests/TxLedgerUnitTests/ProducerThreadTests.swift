import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore

/// `ProducerThread`: what its consumer sees is what a sequential loop would see. The consumer
/// side runs on a dedicated thread, as it does on a GRDB queue, since it waits.
struct ProducerThreadTests {
    private struct Broken: Error, Equatable {}

    @Test func everyElementArrivesInOrderInBatches() async throws {
        let batches = try await DedicatedThread.run {
            let producer = ProducerThread<Int>(name: "test.producer", limit: BatchLimit(count: 1000)) { yield in
                for i in 0..<2501 { try yield(i, 0) }
            }
            defer { producer.stop() }
            var batches: [[Int]] = []
            while let batch = try producer.next() { batches.append(batch) }
            return batches
        }
        #expect(batches.map(\.count) == [1000, 1000, 501])
        #expect(batches.joined().elementsEqual(0..<2501))
    }

    /// A batch closes once its elements hold its limit's bytes as the producer counts them,
    /// before it has its count: large elements (records of 1 MiB messages) wait a few at a time.
    @Test func batchesCloseOnceTheyHoldTheirBytes() async throws {
        let batches = try await DedicatedThread.run {
            let producer = ProducerThread<Int>(name: "test.producer", limit: BatchLimit(count: 100, bytes: 10)) {
                yield in
                for i in 0..<30 { try yield(i, i < 20 ? 4 : 0) }
            }
            defer { producer.stop() }
            var batches: [[Int]] = []
            while let batch = try producer.next() { batches.append(batch) }
            return batches
        }
        // Three elements of 4 bytes pass 10; the last batch ends with elements counted as 0.
        #expect(batches.map(\.count) == [3, 3, 3, 3, 3, 3, 12])
        #expect(batches.joined().elementsEqual(0..<30))
    }

    /// An error comes after every element made before it, the unfinished batch's included, as
    /// it would in a loop that handles each element before making the next.
    @Test func anErrorComesAfterTheElementsBeforeIt() async throws {
        let (seen, error) = try await DedicatedThread.run {
            let producer = ProducerThread<Int>(name: "test.producer", limit: BatchLimit(count: 10)) { yield in
                for i in 0..<25 { try yield(i, 0) }
                throw Broken()
            }
            defer { producer.stop() }
            var seen: [Int] = []
            do {
                while let batch = try producer.next() { seen += batch }
                return (seen, nil as Broken?)
            } catch let error as Broken {
                return (seen, error)
            }
        }
        #expect(seen == Array(0..<25))
        #expect(error == Broken())
    }

    /// A consumer that stops early ends a producer that would never end, and `stop()` returns
    /// only once the producer has returned, its captures released.
    @Test(.timeLimit(.minutes(1))) func stoppingEndsTheProducerAndWaitsForIt() async throws {
        let returned = LockedValue(false)
        let made = LockedValue(0)
        let first = try await DedicatedThread.run {
            let producer = ProducerThread<Int>(name: "test.producer", limit: BatchLimit(count: 4)) { yield in
                defer { returned.set(true) }
                var i = 0
                while true {
                    try yield(i, 0)
                    made.update { $0 += 1 }
                    i += 1
                }
            }
            let first = try producer.next()
            producer.stop()
            return first
        }
        #expect(first == [0, 1, 2, 3])
        #expect(returned.get())
        // Bounded: no more than the waiting batches, the one handed over and the next one.
        #expect(made.get() <= 4 * 6)
    }
}
