@testable import TxLedger
@testable import TxLedgerCore

/// What a newer version of TxLedger would write that this one does not know
/// (Specs/bundle-format.md, "Newer fields"): two facts, a value of the terminal register (when
/// the record has one) and a register of block 6 with a value of each wire type. Tests hand it
/// to this version, which must keep it and pass it on unchanged.
enum NewerVersion {
    /// `state` as a newer version holds it, its block 6 register stamped `registerStamp`.
    static func extended(_ state: RecordState, registerStamp: Stamp, fact: UInt64 = 7) throws -> RecordState {
        try state.attaching(fields(of: state, registerStamp: registerStamp, fact: fact))
    }

    static func fields(of state: RecordState, registerStamp: Stamp, fact: UInt64) -> NewerFields {
        var fields = [
            NewerField(number: 100, value: .varint(fact)),
            NewerField(number: 101, value: .sharedText("newer-fact")),
        ]
        if state.status.terminal != nil {
            fields.append(NewerField(number: 2000, value: .text("0x00ff10")))
        }
        fields += [
            NewerField(number: 6000, value: .stampTime(registerStamp.time)),
            NewerField(number: 6001, value: .replica(registerStamp.replica)),
            NewerField(number: 6002, value: .stampTime(registerStamp.time - 5)),
            NewerField(number: 6003, value: .replica(ReplicaID(rawValue: 0x0B0B))),
            NewerField(number: 6004, value: .bytes([0, 1, 0xFE, 0xFF])),
            NewerField(number: 6005, value: .sharedText("newer-fact")),
            NewerField(number: 6006, value: .text("Zürich")),
        ]
        return NewerFields(fields)
    }
}
