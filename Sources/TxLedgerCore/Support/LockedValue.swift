import Foundation

/// A value that any thread may read and change, guarded by a lock: for the little state a
/// `Sendable` class keeps outside its database (a flag an app flips, a cached identity).
package final class LockedValue<Value: Sendable>: @unchecked Sendable {
    // `value` is only touched with `lock` held.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package func get() -> Value {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    package func set(_ newValue: Value) {
        lock.lock()
        defer { lock.unlock() }
        value = newValue
    }

    package func update<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
