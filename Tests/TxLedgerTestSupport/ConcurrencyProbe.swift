import Foundation

/// Holds a server's requests so that the client's concurrency shows: a request is answered only
/// once `bound` requests are in flight (or all that remain of `expected`), one at a time. A
/// client that keeps to the bound therefore reaches it exactly; one that does not shows more.
/// A client that never reaches the bound leaves its requests held: the test that uses the
/// probe carries a time limit, so it fails instead of hanging (no deadline here that a slow
/// machine could reach).
actor ConcurrencyProbe {
    let bound: Int
    let expected: Int
    private(set) var inFlight = 0
    private(set) var maxInFlight = 0
    private(set) var completed = 0
    private var held: [CheckedContinuation<Void, Never>] = []

    init(bound: Int, expected: Int) {
        self.bound = bound
        self.expected = expected
    }

    /// Called by the server's handler for each request; returns when the request may be answered.
    func enter() async {
        inFlight += 1
        maxInFlight = max(maxInFlight, inFlight)
        await withCheckedContinuation { continuation in
            held.append(continuation)
            releaseIfFull()
        }
    }

    /// Called when the handler has answered.
    func leave() {
        inFlight -= 1
        completed += 1
        releaseIfFull()
    }

    private func releaseIfFull() {
        // One released request at a time: release the next only when every request in flight is held.
        if !held.isEmpty, held.count == inFlight, inFlight >= min(bound, expected - completed) {
            held.removeFirst().resume()
        }
    }
}
