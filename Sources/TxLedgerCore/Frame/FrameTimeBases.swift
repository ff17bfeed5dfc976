/// What format 2 writes a frame's times as differences from (Specs/bundle-format.md, "Record
/// frames"): the frame's `timestamp_ms`, and the milliseconds of its facts stamp. Each is
/// known once its field is passed; the fields that use it come after it.
struct FrameTimeBases {
    private var timestamp: Int64?
    private var factsMillis: Int64?

    /// Takes note of field `number`'s value if it is a base.
    mutating func pass(_ number: Int, value: Int64) {
        switch number {
        case RecordField.timestampMs.number: timestamp = value
        case RecordField.factsTime.number: factsMillis = value >> Stamp.counterBits
        default: break
        }
    }

    /// The base of field `number` written as `encoding` (`.sinceTimestamp` or `.stampTime`).
    /// - Throws: `BundleError.malformedContent` if its base's field did not come before it.
    func base(of number: Int, _ encoding: FieldEncoding) throws -> Int64 {
        let (base, name) =
            encoding == .stampTime && number != RecordField.factsTime.number
            ? (factsMillis, "facts_time") : (timestamp, "timestamp_ms")
        guard let base else { throw BundleError.malformedContent("field \(number) comes without \(name)") }
        return base
    }
}

extension Array where Element == UInt8 {
    /// A stamp's time: its milliseconds as an svarint difference from `base`, then its counter.
    mutating func appendStampTime(_ time: Int64, base: Int64) {
        appendSVarint((time >> Stamp.counterBits) &- base)
        appendUVarint(UInt64(time & (1 << Stamp.counterBits - 1)))
    }
}

extension PayloadSource {
    mutating func readStampTime(base: Int64) throws -> Int64 {
        let millis = base &+ (try readSVarint())
        let counter = try readCount(limit: 1 << Stamp.counterBits - 1, "a stamp counter")
        guard (millis << Stamp.counterBits) >> Stamp.counterBits == millis else {
            throw BundleError.malformedContent("a stamp time overflows 64 bits")
        }
        return millis << Stamp.counterBits | Int64(counter)
    }
}
