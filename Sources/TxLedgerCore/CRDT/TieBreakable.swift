/// A register value with a total order of its own, used only to break a tie between two writes
/// of one register under the same stamp (Specs/crdt.md, "Equal stamps"). Replicas never issue
/// one stamp twice, but a ledger file copied to a second device, or restored from a backup,
/// may issue a stamp again before it notices; ordering by `(stamp, tieBreakKey)` keeps the join
/// commutative, associative and idempotent even then.
package protocol TieBreakable: Hashable, Sendable {
    /// Bytes compared lexicographically; crdt.md gives them for every register.
    var tieBreakKey: [UInt8] { get }
}

extension Bool: TieBreakable {
    package var tieBreakKey: [UInt8] { [self ? 1 : 0] }
}

/// A note: no note orders first, then the text's UTF-8.
extension Optional: TieBreakable where Wrapped == String {
    package var tieBreakKey: [UInt8] { map { [1] + Array($0.utf8) } ?? [0] }
}

/// Labels: each label's UTF-8 followed by a zero byte (labels hold no control characters).
extension Array: TieBreakable where Element == String {
    package var tieBreakKey: [UInt8] { flatMap { [UInt8]($0.utf8) + [0] } }
}

/// An inferred failure's reason: its UTF-8.
extension String: TieBreakable {
    package var tieBreakKey: [UInt8] { Array(utf8) }
}

/// The terminal register's value, a proven outcome (its evidence, always proof there, is not
/// in the key): the status name and a zero byte, then `confirmedAt` (absent: 0; else 1 and its
/// milliseconds as 8 big-endian bytes), then `failureReason` (absent: 0; else 1 and its UTF-8);
/// then, only if a status detail is present, a zero byte (a reason holds none, so the key stays
/// unambiguous) and each status detail in field order (`blockNumber`, `feePaid`, `replacedBy`):
/// absent 0; else 1 and its value, an integer as 8 big-endian bytes, a text as its UTF-8
/// followed by a zero byte but for the last detail's.
extension StatusUpdate: TieBreakable {
    package var tieBreakKey: [UInt8] {
        var key = Array(status.rawValue.utf8) + [0]
        if let confirmedAt {
            key.append(1)
            key.appendBigEndian(UInt64(confirmedAt.millis), width: 8)
        } else {
            key.append(0)
        }
        key += failureReason.map { [1] + Array($0.utf8) } ?? [0]
        guard !details.isEmpty else { return key }
        key.append(0)
        for field in RecordField.statusDetails {
            guard let value = details[field.key] else {
                key.append(0)
                continue
            }
            key.append(1)
            guard field.encoding == .integer else {
                key += Array(value.utf8)
                if field != RecordField.statusDetails.last { key.append(0) }
                continue
            }
            guard let number = UInt64(value) else {
                preconditionFailure("\(field.name) holds '\(value)': its rule admits whole numbers only")
            }
            key.appendBigEndian(number, width: 8)
        }
        return key
    }
}

/// The facts as the format 2 frame writes them, with `explorer_url` always written and no
/// shared texts: each present fact (`RecordField.isFact`) in increasing order of number, as its
/// uvarint number, then an integer as an svarint or a text as its uvarint byte length and UTF-8.
extension TransactionFacts: TieBreakable {
    package var tieBreakKey: [UInt8] {
        let fields = RecordState(
            facts: Register(self, stamp: Stamp(time: 0, replica: ReplicaID(rawValue: 0))),
            status: StatusRegister(),
            lastCheckedAt: nil,
            note: nil,
            labels: nil,
            hidden: nil
        ).fields
        var key: [UInt8] = []
        for field in RecordField.all where field.isFact {
            switch fields[field] {
            case let .integer(integer)?:
                key.appendUVarint(UInt64(field.number))
                key.appendSVarint(integer)
            case let .text(text)?:
                key.appendUVarint(UInt64(field.number))
                key.appendUVarint(UInt64(text.utf8.count))
                key += Array(text.utf8)
            case nil:
                continue
            }
        }
        return key
    }
}
