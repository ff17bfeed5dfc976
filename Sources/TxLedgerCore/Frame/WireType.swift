/// How a field's value is written in a format 4 record frame: the low three bits of its tag
/// (Specs/bundle-format.md, "Record frames"). A reader can step over a field of any of these
/// types without knowing the field, which is what lets it keep a newer version's fields.
enum WireType: UInt8, CaseIterable, Sendable {
    /// A uvarint (an `i` or `o` field's svarint is one).
    case varint = 0
    /// A stamp time: an svarint difference of milliseconds from a base, then a uvarint counter.
    case stampTime = 1
    /// A `ctext`.
    case text = 2
    /// An `stext`: a reference into the bundle's table of repeated texts.
    case sharedText = 3
    /// A replica reference.
    case replica = 4
    /// A uvarint byte length, then that many bytes.
    case bytes = 5
}
