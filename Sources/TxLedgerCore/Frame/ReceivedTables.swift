import Foundation

/// The tables of one payload's frames (its shared texts and replicas, bundle-format.md,
/// "Primitives") as its decoder has read them so far, for the thread that stores the payload's
/// frames (`FrameEncoder.frame(storing:)`): the decoder appends each entry a frame introduces,
/// and the other thread reads entries that frames it was handed refer to. Entries are only
/// appended, never changed, so a reader keeps what it has read.
package final class ReceivedTables: @unchecked Sendable {
    // `texts` and `replicas` are only touched with `lock` held.
    private let lock = NSLock()
    private var texts: [String] = []
    private var replicas: [ReplicaID] = []

    package init() {}

    /// Appends the entries of `texts` and `replicas` beyond those already here (the decoder's
    /// whole tables, which only grow).
    func catchUp(texts: [String], replicas: [ReplicaID]) {
        lock.lock()
        defer { lock.unlock() }
        if texts.count > self.texts.count { self.texts += texts[self.texts.count...] }
        if replicas.count > self.replicas.count { self.replicas += replicas[self.replicas.count...] }
    }

    /// The text entries from `start` on, and the replicas from `replicaStart` on.
    func entries(textsFrom start: Int, replicasFrom replicaStart: Int) -> (texts: [String], replicas: [ReplicaID]) {
        lock.lock()
        defer { lock.unlock() }
        return (
            start < texts.count ? Array(texts[start...]) : [],
            replicaStart < replicas.count ? Array(replicas[replicaStart...]) : []
        )
    }
}
