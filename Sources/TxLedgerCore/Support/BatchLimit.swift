/// The most a batch takes: `count` elements, or fewer once they hold `bytes` as their maker
/// counts them (the element that reaches it included). Batches of outside records are limited
/// in both: a count alone lets records of 1 MiB messages wait by the hundred, gigabytes.
package struct BatchLimit: Sendable {
    package let count: Int
    package let bytes: Int

    package init(count: Int, bytes: Int = .max) {
        precondition(count > 0 && bytes > 0, "a batch takes at least one element")
        self.count = count
        self.bytes = bytes
    }

    /// Whether a batch of `count` elements that hold `bytes` is full.
    package func isReached(count: Int, bytes: Int) -> Bool {
        count >= self.count || bytes >= self.bytes
    }
}
