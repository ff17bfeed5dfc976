import Foundation

/// The newer fields of one register or record, in increasing number (Specs/bundle-format.md,
/// "Newer fields"). A field's number says whose it is: 65–999 are facts, and each block of a
/// thousand above belongs to one register (`owner(of:)`).
///
/// Their stored form, which is also their tie-break key (Specs/crdt.md, "Equal stamps"), needs
/// no bundle tables: each field as the uvarint `number << 3 | wire type`, then a `varint` as a
/// uvarint, a `stampTime` as the uvarint time, a text (either kind) as a uvarint byte length and
/// its UTF-8, a replica as 8 big-endian bytes, and `bytes` as a uvarint length and the bytes.
package struct NewerFields: Hashable, Sendable {
    /// The numbers a newer field may have: above every field of format 4's table.
    static let numbers = (RecordField.last + 1)...63_999
    /// Numbers per register block.
    static let blockSize = 1000

    /// Whose a newer field is.
    enum Owner: Hashable {
        /// The facts (numbers 65–999): they travel with the facts register.
        case facts
        /// The register of block `n` (numbers `1000·n` to `1000·n + 999`).
        case register(block: Int)
    }

    static func owner(of number: Int) -> Owner {
        number < blockSize ? .facts : .register(block: number / blockSize)
    }

    let fields: [NewerField]

    /// - Precondition: `fields` are in strictly increasing number, each in `numbers`.
    init(_ fields: [NewerField] = []) {
        precondition(
            zip(fields, fields.dropFirst()).allSatisfy { $0.number < $1.number }
                && fields.allSatisfy { Self.numbers.contains($0.number) },
            "newer fields in increasing number"
        )
        self.fields = fields
    }

    var isEmpty: Bool { fields.isEmpty }

    var storedBytes: [UInt8] {
        var bytes: [UInt8] = []
        for field in fields {
            bytes.appendUVarint(UInt64(field.number) << 3 | UInt64(field.value.wireType.rawValue))
            switch field.value {
            case let .varint(value): bytes.appendUVarint(value)
            case let .stampTime(time): bytes.appendUVarint(UInt64(time))
            case let .text(text), let .sharedText(text): bytes.appendText(text)
            case let .replica(replica): bytes.appendBigEndian(UInt64(replica.rawValue), width: 8)
            case let .bytes(value):
                bytes.appendUVarint(UInt64(value.count))
                bytes += value
            }
        }
        return bytes
    }

    /// Reads the stored form.
    /// - Throws: `LedgerError.invalidInput` if `bytes` are not one.
    package init(storedBytes bytes: [UInt8]) throws {
        var source = FrameBytes(bytes)
        var fields: [NewerField] = []
        do {
            while !source.isAtEnd {
                let tag = try source.readUVarint()
                let number = Int(clamping: tag >> 3)
                guard Self.numbers.contains(number), number > fields.last?.number ?? 0 else {
                    throw LedgerError.invalidInput(
                        field: "newer_fields",
                        reason: "field \(number) is out of order or out of range"
                    )
                }
                let value: NewerField.Value
                switch WireType(rawValue: UInt8(tag & 7)) {
                case .varint: value = .varint(try source.readUVarint())
                case .stampTime:
                    let time = try source.readUVarint()
                    guard time <= UInt64(Stamp.latestTime) else {
                        throw LedgerError.invalidInput(
                            field: "newer_fields",
                            reason: "field \(number)'s stamp time is after the year 3000"
                        )
                    }
                    value = .stampTime(Int64(time))
                case .text: value = .text(try source.readText(limit: bytes.count))
                case .sharedText: value = .sharedText(try source.readText(limit: bytes.count))
                case .replica:
                    let raw = try source.readID64()
                    guard raw <= UInt64(Int64.max) else {
                        throw LedgerError.invalidInput(
                            field: "newer_fields",
                            reason: "a replica id has its top bit set"
                        )
                    }
                    value = .replica(ReplicaID(rawValue: Int64(raw)))
                case .bytes: value = .bytes(try source.readBytes(try source.readCount(limit: bytes.count, "a length")))
                case nil:
                    throw LedgerError.invalidInput(
                        field: "newer_fields",
                        reason: "field \(number) has wire type \(tag & 7)"
                    )
                }
                fields.append(NewerField(number: number, value: value))
            }
        } catch let error as BundleError {
            throw LedgerError.invalidInput(field: "newer_fields", reason: error.localizedDescription, underlying: error)
        }
        self.init(fields)
    }
}

extension NewerFields: TieBreakable {
    package var tieBreakKey: [UInt8] { storedBytes }
}
