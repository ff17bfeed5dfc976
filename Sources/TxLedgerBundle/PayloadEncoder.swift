import TxLedgerCore
import TxLedgerMembership

/// Encodes a change set as a format 4 bundle payload (Specs/bundle-format.md, "Payload"): the
/// header, then one length-prefixed frame per record, with the newer fields a record holds
/// after the fields of the table. The encoding is deterministic: the same
/// change set, records in the same order, gives the same bytes.
///
/// Replica ids are written once: a replica reference is the uvarint index of a replica already
/// introduced (the origin is index 0), or the next index followed by the new id (`id64`).
/// Repeated texts are written once too (`SharedTextTable`), hex as bytes (`CompactText`), and
/// times as differences (`FrameTimeBases`).
package struct PayloadEncoder {
    /// Encoded bytes not yet taken by the caller.
    package var bytes: [UInt8] = []
    private var frames = FrameEncoder()

    package init() {}

    /// Encodes the change set header, and in format 5 (device keys) the device section after it.
    package mutating func encode(_ header: ChangeSetHeader, devices: DeviceSection? = nil) {
        bytes.appendText(header.vaultId)
        bytes.appendBigEndian(UInt64(header.origin.rawValue), width: 8)
        frames = FrameEncoder(origin: header.origin)
        bytes.appendUVarint(UInt64(header.since))
        bytes.appendUVarint(UInt64(header.through))
        let lineage = header.lineage ?? []
        bytes.appendUVarint(UInt64(lineage.count))
        for epoch in lineage {
            bytes.appendBigEndian(UInt64(epoch.id.rawValue), width: 8)
            bytes.appendUVarint(UInt64(epoch.firstSeq))
        }
        let knowledge = header.knowledge.sorted { $0.key < $1.key }
        bytes.appendUVarint(UInt64(knowledge.count))
        for (replica, seq) in knowledge {
            frames.appendReplicaReference(replica.rawValue, to: &bytes)
            bytes.appendUVarint(UInt64(seq))
            bytes.appendBigEndian(UInt64(header.knowledgeEpochs[replica]?.rawValue ?? 0), width: 8)
        }
        if let watermark = header.clearedThrough {
            bytes.appendUVarint(1)
            bytes.appendSVarint(watermark.time)
            frames.appendReplicaReference(watermark.replica.rawValue, to: &bytes)
        } else {
            bytes.appendUVarint(0)
        }
        if let devices { bytes += devices.bytes }
    }

    package mutating func encode(_ record: RecordState) {
        appendFrame(frames.frame(record))
    }

    /// Writes the frame of the record stored as `frame` in a ledger file whose tables are
    /// `tables`, in a row whose `time` is `timestamp`, without decoding the record: the same
    /// bytes as `encode(_:)` of that record (`FrameEncoder.frame(transcoding:timestamp:tables:)`).
    /// - Throws: `BundleError.malformedContent` if `frame` is not a well-formed stored frame.
    package mutating func encode(stored frame: [UInt8], timestamp: Int64, tables: FrameTables) throws {
        appendFrame(try frames.frame(transcoding: frame, timestamp: timestamp, tables: tables))
    }

    /// Writes one frame of `fields` as they are (tests make malformed frames with it).
    mutating func encodeFrame(_ fields: RecordFields) {
        appendFrame(frames.frame(fields))
    }

    private mutating func appendFrame(_ frame: [UInt8]) {
        bytes.appendUVarint(UInt64(frame.count))
        bytes.append(contentsOf: frame)
    }
}
