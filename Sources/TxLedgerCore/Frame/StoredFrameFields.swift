/// A stored frame (Specs/schema.md, "Migration `v8: compact records`") as spans of its bytes:
/// each field's number, wire type and the bytes of its value, read without decoding a value.
/// A merge whose stored row holds the received record's facts byte for byte decodes only the
/// row's other fields, and writes the merged record as those facts' bytes with its other fields
/// encoded (schema.md, "Merging a record whose row holds its facts").
package struct StoredFrameFields: Sendable {
    private struct Field: Sendable {
        let number: Int
        let wire: WireType
        /// Where the value's bytes lie in the frame.
        let value: Range<Int>
        /// Whether the field is a fact (`RecordField.isFact`): not the facts stamp.
        let isFact: Bool
    }

    private let bytes: [UInt8]
    private let fields: [Field]

    /// By number, the wire type of each field a stored frame may hold and whether it is a fact;
    /// `nil` for `timestamp_ms` (its row's `time`) and numbers this version does not know.
    private static let known: [(wire: WireType, isFact: Bool)?] = (0...RecordField.last).map { number in
        RecordField(number: number).flatMap { $0 == .timestampMs ? nil : ($0.encoding.wireType, $0.isFact) }
    }

    /// The fields of `frame`; `nil` if it is not a well-formed stored frame (tags in order, each
    /// field one this version knows, with its wire type, and lengths within the frame) or holds
    /// a field of a newer version, whose register a merge does not sort out here. References to
    /// the file's tables are not resolved: the values are compared as bytes.
    package init?(_ frame: [UInt8]) {
        var source = FrameBytes(frame)
        var fields: [Field] = []
        fields.reserveCapacity(32)
        var last = 0
        do {
            while !source.isAtEnd {
                let (number, wire) = try FrameDecoder.readTag(from: &source, after: last, record: 0)
                last = number
                guard number < Self.known.count, let known = Self.known[number], known.wire == wire else { return nil }
                let start = source.offset
                switch wire {
                case .varint: _ = try source.readUVarint()
                case .stampTime:
                    _ = try source.readUVarint()
                    _ = try source.readUVarint()
                case .text: try source.skip(Int(clamping: try source.readUVarint() >> 2))
                case .bytes: try source.skip(Int(clamping: try source.readUVarint()))
                case .sharedText:
                    // A reference, or 0 and the text written out.
                    if try source.readUVarint() == 0 { try source.skip(Int(clamping: try source.readUVarint() >> 2)) }
                case .replica:
                    // An index, or the table's size and the id.
                    if try source.readUVarint() == UInt64(FrameDecoder.maxReplicas) { try source.skip(8) }
                }
                fields.append(Field(number: number, wire: wire, value: start..<source.offset, isFact: known.isFact))
            }
        } catch {
            return nil
        }
        self.bytes = frame
        self.fields = fields
    }

    /// Whether `other` holds the same facts as this frame, byte for byte: the same fact fields,
    /// each with the same bytes. Frames of one file's tables that do hold the same facts: a
    /// value's bytes are its value (a text's reference is to the one entry that holds it).
    package func holdsFacts(of other: StoredFrameFields) -> Bool {
        var (mine, theirs) = (nextFact(from: 0), other.nextFact(from: 0))
        while mine < fields.count && theirs < other.fields.count {
            let (field, otherField) = (fields[mine], other.fields[theirs])
            guard field.number == otherField.number, bytes[field.value] == other.bytes[otherField.value] else {
                return false
            }
            (mine, theirs) = (nextFact(from: mine + 1), other.nextFact(from: theirs + 1))
        }
        return mine == fields.count && theirs == other.fields.count
    }

    /// The frame of every field but the facts (the facts stamp stays: the registers' stamps are
    /// written from it), its tags written anew.
    package var withoutFacts: [UInt8] {
        var frame: [UInt8] = []
        frame.reserveCapacity(bytes.count)
        var previous = 0
        for field in fields where !field.isFact { append(field, after: &previous, to: &frame) }
        return frame
    }

    /// The frame of this frame's facts and every other field of `rest`, in increasing number,
    /// the tags written anew: the stored frame of a record whose facts these are and whose
    /// other fields (the facts stamp among them) `rest` holds.
    package func keepingFacts(with rest: StoredFrameFields) -> [UInt8] {
        var frame: [UInt8] = []
        frame.reserveCapacity(bytes.count + rest.bytes.count)
        var previous = 0
        var (fact, other) = (nextFact(from: 0), rest.nextOther(from: 0))
        while fact < fields.count || other < rest.fields.count {
            if other == rest.fields.count || fact < fields.count && fields[fact].number < rest.fields[other].number {
                append(fields[fact], after: &previous, to: &frame)
                fact = nextFact(from: fact + 1)
            } else {
                rest.append(rest.fields[other], after: &previous, to: &frame)
                other = rest.nextOther(from: other + 1)
            }
        }
        return frame
    }

    /// The index of the first fact at or after `index` (`fields.count`: none).
    private func nextFact(from index: Int) -> Int {
        var index = index
        while index < fields.count && !fields[index].isFact { index += 1 }
        return index
    }

    /// The index of the first field but a fact at or after `index` (`fields.count`: none).
    private func nextOther(from index: Int) -> Int {
        var index = index
        while index < fields.count && fields[index].isFact { index += 1 }
        return index
    }

    /// Appends `field` of this frame, its tag after field `previous`.
    private func append(_ field: Field, after previous: inout Int, to frame: inout [UInt8]) {
        FrameEncoder.tag(field.number, field.wire, after: &previous, to: &frame)
        frame += bytes[field.value]
    }
}
