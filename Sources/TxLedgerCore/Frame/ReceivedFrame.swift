/// A received record's frame, kept so that a store writes it without encoding the record again
/// (Specs/schema.md, "Storing a received frame"): a frame of format 4 or 5 that is, field for
/// field, the frame a writer would write for the record it was read as (no value was brought
/// to its canonical form, no field of a newer version), with the tables it refers to.
package struct ReceivedFrame: Sendable {
    /// The frame as received: a payload's frame, `timestamp_ms` in it, tables introduced inline.
    let bytes: [UInt8]
    /// The payload's tables, and how many entries each held before this frame.
    let tables: ReceivedTables
    let textsBefore: Int
    let replicasBefore: Int
}
