/// A record as its fields (`RecordField`): what a bundle frame and a `record` row hold, before
/// `RecordState(fields:)` validates it into a record, and what `RecordState.fields` gives back.
/// The vault is the change set's (a frame does not carry it); newer fields are kept as they
/// came.
package struct RecordFields: Sendable {
    var vault: String
    package var newer = NewerFields()
    /// Which fields are present: bit `n - 1` (of `low`, then of `high`) for field `n`, up to
    /// field 128 (`RecordFieldsStorageTests` checks that every field fits).
    private var present: (low: UInt64, high: UInt64) = (0, 0)
    /// The present fields' values, in increasing field number: a frame's fields come in that
    /// order, so decoding appends, and only what is there is made and freed (a slot for every
    /// field took a tenth of decoding a record).
    private var values: [FieldValue] = []

    package init(vault: String) {
        self.vault = vault
        values.reserveCapacity(32)
    }

    /// Empties these fields for a record of `vault`, keeping the storage of their values: a
    /// decoder that reads many frames fills one `RecordFields` again instead of allocating
    /// another for each.
    mutating func removeAll(vault: String) {
        self.vault = vault
        newer = NewerFields()
        present = (0, 0)
        values.removeAll(keepingCapacity: true)
    }

    package subscript(field: RecordField) -> FieldValue? {
        @inline(__always) get {
            let (isPresent, index) = position(of: field)
            return isPresent ? values[index] : nil
        }
        set {
            let (isPresent, index) = position(of: field)
            switch (isPresent, newValue) {
            case let (true, value?): values[index] = value
            case (true, nil):
                values.remove(at: index)
                flip(field)
            case let (false, value?):
                if index == values.count { values.append(value) } else { values.insert(value, at: index) }
                flip(field)
            case (false, nil): break
            }
        }
    }

    /// Sets `field` to `value`: as the subscript does, appended at once when `field` comes after
    /// every field present (a frame's fields come in increasing order).
    mutating func append(_ field: RecordField, _ value: FieldValue) {
        let bit = field.rawValue - 1
        let after =
            bit >= 64
            ? present.high >> (bit - 64) == 0 : present.high == 0 && present.low >> bit == 0
        if after {
            flip(field)
            values.append(value)
        } else {
            self[field] = value
        }
    }

    /// Whether `field` is present (without copying its value).
    func has(_ field: RecordField) -> Bool {
        position(of: field).isPresent
    }

    /// The present fields and their values, in increasing field number.
    var presentFields: PresentFields { PresentFields(present: present, values: values) }

    /// The iterator of `presentFields`: a loop over it captures nothing (a closure per field
    /// made the encoder check each access to its captured state at run time).
    struct PresentFields: Sequence, IteratorProtocol {
        fileprivate var present: (low: UInt64, high: UInt64)
        fileprivate let values: [FieldValue]
        private var index = 0

        fileprivate init(present: (low: UInt64, high: UInt64), values: [FieldValue]) {
            self.present = present
            self.values = values
        }

        mutating func next() -> (field: RecordField, value: FieldValue)? {
            let number: Int
            if present.low != 0 {
                number = 1 + present.low.trailingZeroBitCount
                present.low &= present.low &- 1
            } else if present.high != 0 {
                number = 65 + present.high.trailingZeroBitCount
                present.high &= present.high &- 1
            } else {
                return nil
            }
            defer { index += 1 }
            // Only a field's own bit is ever set.
            return (RecordField(rawValue: number)!, values[index])
        }
    }

    /// Whether `other` holds the same fields with the same values byte for byte
    /// (`FieldValue.isIdentical`), and the same newer fields.
    func isIdentical(to other: RecordFields) -> Bool {
        present == other.present && values.count == other.values.count
            && zip(values, other.values).allSatisfy { $0.isIdentical(to: $1) }
            && newer.tieBreakKey == other.newer.tieBreakKey
    }

    /// The first field, in increasing number, that holds an empty text.
    var firstEmptyText: RecordField? {
        guard let index = values.firstIndex(where: { if case .text(let text) = $0 { text.isEmpty } else { false } })
        else { return nil }
        // The field whose value is the `index`th present one.
        var skipped = 0
        for raw in 1...RecordField.last {
            guard let field = RecordField(rawValue: raw), has(field) else { continue }
            if skipped == index { return field }
            skipped += 1
        }
        return nil
    }

    /// Whether `field` is present, and the index in `values` its value has (or would have).
    @inline(__always)
    private func position(of field: RecordField) -> (isPresent: Bool, index: Int) {
        let bit = field.rawValue - 1
        guard bit >= 64 else {
            let mask = UInt64(1) << bit
            return (present.low & mask != 0, (present.low & (mask &- 1)).nonzeroBitCount)
        }
        let mask = UInt64(1) << (bit - 64)
        return (present.high & mask != 0, present.low.nonzeroBitCount + (present.high & (mask &- 1)).nonzeroBitCount)
    }

    private mutating func flip(_ field: RecordField) {
        let bit = field.rawValue - 1
        if bit < 64 { present.low ^= UInt64(1) << bit } else { present.high ^= UInt64(1) << (bit - 64) }
    }

    /// The integer of `field`, `nil` if it is absent.
    /// - Throws: `LedgerError.invalidInput` if it holds a text.
    func integer(_ field: RecordField) throws -> Int64? {
        switch self[field] {
        case nil: return nil
        case let .integer(value)?: return value
        case .text?:
            throw LedgerError.invalidInput(
                field: field.name,
                reason: "holds a value of the wrong type: a text, not an integer"
            )
        }
    }

    /// The text of `field`, `nil` if it is absent.
    /// - Throws: `LedgerError.invalidInput` if it holds an integer.
    func text(_ field: RecordField) throws -> String? {
        switch self[field] {
        case nil: return nil
        case let .text(value)?: return value
        case .integer?:
            throw LedgerError.invalidInput(
                field: field.name,
                reason: "holds a value of the wrong type: an integer, not a text"
            )
        }
    }

    /// The value of a field kept by key, as text (an extra fact in `TransactionFacts.extras`, a
    /// status detail in `StatusUpdate.details`): a text field's text, an integer field's number
    /// in decimal (`nonce`, `blockNumber`).
    /// - Throws: `LedgerError.invalidInput` if it holds a value of the other type.
    func keyed(_ field: RecordField) throws -> String? {
        field.encoding == .integer ? try integer(field).map { String($0) } : try text(field)
    }

    /// Sets a field kept by key from its text, which its rule admitted: an integer field's
    /// decimal text as its number.
    mutating func setKeyed(_ field: RecordField, _ value: String?) {
        guard let value else {
            self[field] = nil
            return
        }
        guard field.encoding == .integer else {
            self[field] = .text(value)
            return
        }
        guard let number = Int64(value) else {
            preconditionFailure("\(field.name) holds '\(value)': its rule admits whole numbers only")
        }
        self[field] = .integer(number)
    }
}
