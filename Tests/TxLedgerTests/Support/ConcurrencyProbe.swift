import Foundation

/// Holds a server's requests so that the client's concurrency shows: a request is answered only
/// once `bound` requests are in flight (or all that remain of `expected`), one at a time. A
/// client that keeps to the bound therefore reaches it exactly; one that does not shows more.
/// If nothing moves for `stallSeconds` every held request is let go and `stalled` is set, so a
/// client that never reaches the bound fails the test instead of hanging it.
actor ConcurrencyProbe {
    let bound: Int
    let expected: Int
    private(set) var inFlight = 0
    private(set) var maxInFlight = 0
    private(set) var completed = 0
    private(set) var stalled = false
    private var held: [CheckedContinuation<Void, Never>] = []
    private var progress = 0

    init(bound: Int, expected: Int) {
        self.bound = bound
        self.expected = expected
    }

    /// Called by the server's handler for each request; returns when the request may be answered.
    func enter() async {
        inFlight += 1
        maxInFlight = max(maxInFlight, inFlight)
        progress += 1
        await withCheckedContinuation { continuation in
            held.append(continuation)
            releaseIfFull()
            watchForStall()
        }
    }

    /// Called when the handler has answered.
    func leave() {
        inFlight -= 1
        completed += 1
        progress += 1
        releaseIfFull()
    }

    private func releaseIfFull() {
        // One released request at a time: release the next only when every request in flight is held.
        if !held.isEmpty, held.count == inFlight, inFlight >= min(bound, expected - completed) {
            held.removeFirst().resume()
        }
    }

    private func watchForStall() {
        let seen = progress
        Task {
            try? await Task.sleep(nanoseconds: 5_000_000_000)
            self.releaseAllIfStuck(since: seen)
        }
    }

    private func releaseAllIfStuck(since seen: Int) {
        guard progress == seen, !held.isEmpty else { return }
        stalled = true
        for continuation in held { continuation.resume() }
        held = []
    }
}
