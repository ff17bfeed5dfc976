/// A record field's value as the codec and the store hold it: an integer (times, stamps,
/// replica ids, decimals, flags) or a text (amounts are decimal texts).
package enum FieldValue: Hashable, Sendable {
    case integer(Int64)
    case text(String)
}
