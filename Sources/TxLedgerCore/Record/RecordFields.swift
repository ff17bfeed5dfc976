/// A record as its fields (`RecordField`): what a bundle frame and a `record` row hold, before
/// `RecordState(fields:)` validates it into a record, and what `RecordState.fields` gives back.
/// The vault is the change set's (a frame does not carry it); newer fields are kept as they
/// came.
package struct RecordFields: Sendable {
    var vault: String
    package var newer = NewerFields()
    private var values: [FieldValue?] = Array(repeating: nil, count: RecordField.last)

    package init(vault: String) {
        self.vault = vault
    }

    package subscript(field: RecordField) -> FieldValue? {
        get { values[field.rawValue - 1] }
        set { values[field.rawValue - 1] = newValue }
    }

    /// Whether `field` is present (without copying its value).
    func has(_ field: RecordField) -> Bool {
        values[field.rawValue - 1] != nil
    }

    /// The first field, in increasing number, that holds an empty text.
    var firstEmptyText: RecordField? {
        for (offset, value) in values.enumerated() {
            if case .text(let text)? = value, text.isEmpty { return RecordField(rawValue: offset + 1) }
        }
        return nil
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
