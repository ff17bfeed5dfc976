/// A payload's frame as `FrameDecoder.read` read it in order, before its record is validated:
/// its fields and, for a store to keep the frame (`ReceivedFrame`), the payload's tables as
/// they were before it. Validating needs nothing else, so several frames read in turn may be
/// validated at once, each on its own thread.
package struct DecodedFrame: Sendable {
    let bytes: [UInt8]
    /// The record's number in its payload, from 0 (errors name it).
    let index: Int
    /// The payload's format.
    let version: UInt8
    package let fields: RecordFields
    /// The payload's tables and how many entries each held before this frame; `nil` for a
    /// decoder of stored frames, whose frames a store does not keep again.
    let tables: (tables: ReceivedTables, textsBefore: Int, replicasBefore: Int)?

    /// The record as `FrameDecoder.record` validates it, and the frame when a store may keep it:
    /// a frame of format 4 or 5 that encoding the record gives field for field.
    /// - Throws: `BundleError.malformedContent` naming the record and what is wrong.
    package func validated() throws -> ReceivedRecord {
        let record = try FrameDecoder.record(fields, version: version, index: index)
        guard let tables, version >= 4, isWrittenAsEncoded(record) else {
            return (record, nil)
        }
        let frame = ReceivedFrame(
            bytes: bytes,
            tables: tables.tables,
            textsBefore: tables.textsBefore,
            replicasBefore: tables.replicasBefore
        )
        return (record, frame)
    }

    /// Whether encoding `record` gives the fields as written: no field of a newer version (a
    /// store writes those otherwise), and each field that a reader brings to its canonical form
    /// (`RecordField.canonicalized`) was written in it. Chains and the hash are compared;
    /// `labels`, `replaces`, `replaced_by` and `spends`, rare, are not kept.
    private func isWrittenAsEncoded(_ record: RecordState) -> Bool {
        guard fields.newer.isEmpty else { return false }
        let facts = record.facts.value
        for field in RecordField.canonicalized where fields.has(field) {
            let read: String? =
                switch (field, facts.details) {
                case (.chain, _): facts.chain.id
                case (.txHash, _): facts.txHash
                case let (.fromChain, .swap(swap)): swap.fromChain.id
                case let (.toChain, .swap(swap)): swap.toChain.id
                default: nil
                }
            guard let read, fields[field] == .text(read) else { return false }
        }
        return true
    }
}
