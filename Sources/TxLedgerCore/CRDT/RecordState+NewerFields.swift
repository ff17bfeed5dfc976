/// Where a newer version's fields go in a record (Specs/bundle-format.md, "Newer fields"):
/// facts fields with the facts; a known register's block with that register's value; a newer
/// register's block is that register, its stamp in the block's first two fields.
extension RecordState {
    /// The register blocks of the registers this version knows; blocks from `firstNewerBlock`
    /// up are newer registers.
    enum Block {
        static let pending = 1, terminal = 2, note = 3, labels = 4, hidden = 5
        static let firstNewer = 6
    }

    /// Every newer field of the record, in increasing number: the facts', each known register's,
    /// then each newer register's time (field `1000·b`, a stamp time), replica (`1000·b + 1`)
    /// and values.
    var newerFields: NewerFields {
        // Only what is there is gathered: a record of this version's fields (nearly every one)
        // appends, sorts and checks nothing.
        var fields = facts.newerFields.fields
        func gather(_ newer: NewerFields?) {
            if let newer, !newer.isEmpty { fields += newer.fields }
        }
        gather(status.terminal?.newerFields)
        gather(note?.newerFields)
        gather(labels?.newerFields)
        gather(hidden?.newerFields)
        for (block, register) in newerRegisters.sorted(by: { $0.key < $1.key }) {
            let first = block * NewerFields.blockSize
            fields.append(NewerField(number: first, value: .stampTime(register.stamp.time)))
            fields.append(NewerField(number: first + 1, value: .replica(register.stamp.replica)))
            fields += register.value.fields
        }
        return fields.isEmpty ? NewerFields() : NewerFields(fields)
    }

    /// This state with `newer` attached where each field's number says, replacing the newer
    /// fields it had.
    /// - Throws: `LedgerError.invalidInput` for a field in the pending block (pending holds a
    ///   stamp only), a known register's field without that register, or a newer register's
    ///   values without a whole stamp.
    func attaching(_ newer: NewerFields) throws -> RecordState {
        var owned: [NewerFields.Owner: [NewerField]] = [:]
        for field in newer.fields { owned[NewerFields.owner(of: field.number), default: []].append(field) }
        func fields(_ owner: NewerFields.Owner) -> NewerFields { NewerFields(owned.removeValue(forKey: owner) ?? []) }
        func attach<V>(_ register: Register<V>?, block: Int, _ name: String) throws -> Register<V>? {
            let fields = fields(.register(block: block))
            guard let register else {
                if let first = fields.fields.first {
                    throw Self.invalid(first, "comes without the \(name) register's stamp")
                }
                return nil
            }
            return Register(register.value, stamp: register.stamp, newerFields: fields)
        }
        var state = self
        state.facts = Register(facts.value, stamp: facts.stamp, newerFields: fields(.facts))
        if let first = fields(.register(block: Block.pending)).fields.first {
            throw Self.invalid(first, "is in the pending register's block, which holds no values")
        }
        state.status = StatusRegister(
            pending: status.pending,
            terminal: try attach(status.terminal, block: Block.terminal, "terminal"),
            inferred: status.inferred,
            rival: status.rival
        )
        state.note = try attach(note, block: Block.note, "note")
        state.labels = try attach(labels, block: Block.labels, "labels")
        state.hidden = try attach(hidden, block: Block.hidden, "hidden")
        state.newerRegisters = [:]
        for case let (.register(block), blockFields) in owned {
            state.newerRegisters[block] = try Self.newerRegister(block: block, blockFields)
        }
        return state
    }

    /// A newer register from its block's fields: a stamp time and a replica first, then values.
    private static func newerRegister(block: Int, _ fields: [NewerField]) throws -> Register<NewerFields> {
        let first = block * NewerFields.blockSize
        guard fields.count >= 2, fields[0].number == first, fields[1].number == first + 1,
            case let .stampTime(time) = fields[0].value, case let .replica(replica) = fields[1].value
        else {
            throw invalid(
                fields[0],
                "belongs to register block \(block), which has no whole stamp (a stamp time as field \(first), a replica as field \(first + 1))"
            )
        }
        let stamp = try Stamp.received(time: time, replica: replica, field: "field \(first)")
        return Register(NewerFields(Array(fields.dropFirst(2))), stamp: stamp)
    }

    private static func invalid(_ field: NewerField, _ reason: String) -> LedgerError {
        .invalidInput(field: "field \(field.number)", reason: reason)
    }
}
