/// How a frame writes a field's value in formats 2 to 4 (`RecordField.encoding`);
/// `inFormat(1)` gives format 1's (Specs/bundle-format.md, "Record frames").
enum FieldEncoding: Sendable {
    /// An svarint.
    case integer
    /// Format 1's text: a uvarint byte length, then UTF-8.
    case plainText
    /// A compact text (`CompactText`); a plain text in format 1.
    case text
    /// A reference into the bundle's table of repeated texts (`SharedTextTable`); a plain
    /// text in format 1.
    case sharedText
    /// A replica reference (see `PayloadEncoder`).
    case replica
    /// Milliseconds as an svarint difference from the frame's `timestamp_ms`; an svarint in
    /// format 1.
    case sinceTimestamp
    /// A stamp's time: the svarint difference of its milliseconds from its base (the frame's
    /// `timestamp_ms` for the facts stamp, the facts stamp's milliseconds for the others), then
    /// the counter as a uvarint; an svarint in format 1.
    case stampTime

    /// The wire type of a field of this encoding in a format 4 tag.
    var wireType: WireType {
        switch self {
        case .integer, .sinceTimestamp: .varint
        case .stampTime: .stampTime
        case .plainText, .text: .text
        case .sharedText: .sharedText
        case .replica: .replica
        }
    }

    func inFormat(_ version: UInt8) -> FieldEncoding {
        guard version == 1 else { return self }
        return switch self {
        case .integer, .sinceTimestamp, .stampTime: .integer
        case .plainText, .text, .sharedText: .plainText
        case .replica: .replica
        }
    }
}
