/// A value kept out of line, behind one reference: a struct that holds it is that much smaller
/// to move and copy. Equal and hashed by its value; never changed in place (a holder stores
/// another: values kept this way change rarely).
struct OutOfLine<Value: Hashable & Sendable>: Hashable, Sendable {
    private final class Storage: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private let storage: Storage

    init(_ value: Value) {
        storage = Storage(value)
    }

    var value: Value { storage.value }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.value == rhs.storage.value
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(storage.value)
    }
}
