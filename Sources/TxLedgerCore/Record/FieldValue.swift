/// A record field's value as the codec and the store hold it: an integer (times, stamps,
/// replica ids, decimals, flags) or a text (amounts are decimal texts).
package enum FieldValue: Hashable, Sendable {
    case integer(Int64)
    case text(String)
}

extension FieldValue {
    /// Whether `other` is this value byte for byte: `==` compares texts by Unicode canonical
    /// equivalence, under which `"caf\u{E9}"` and `"cafe\u{301}"` are equal though their UTF-8
    /// differs.
    func isIdentical(to other: FieldValue) -> Bool {
        switch (self, other) {
        case let (.integer(value), .integer(otherValue)): value == otherValue
        case let (.text(text), .text(otherText)): text.utf8.elementsEqual(otherText.utf8)
        default: false
        }
    }
}
