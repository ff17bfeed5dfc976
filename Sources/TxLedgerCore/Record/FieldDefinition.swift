/// What the field list says of one field (`RecordField.definition`): everything the frame
/// codec, the store, the shape rules, the extra facts and the tie-break key derive from.
struct FieldDefinition: Sendable {
    /// How a frame writes the field's value.
    let encoding: FieldEncoding
    /// The register the field belongs to (a fact, a register's stamp or value), or `nil` for
    /// `lastCheckedAt`, which is no register.
    let register: RecordRegister?
    /// The kind of record that alone has this fact, or `nil` for a fact of every record (and
    /// for the registers).
    let onlyOf: TransactionKind?
    /// How the field is checked if it is an extra fact: an optional fact kept in
    /// `TransactionFacts.extras` under its key.
    let extraFact: ExtraFactRule?

    init(
        _ encoding: FieldEncoding,
        _ register: RecordRegister?,
        onlyOf: TransactionKind? = nil,
        extraFact: ExtraFactRule? = nil
    ) {
        self.encoding = encoding
        self.register = register
        self.onlyOf = onlyOf
        self.extraFact = extraFact
    }
}
