/// What the field list says of one field (`RecordField.definition`): everything the frame
/// codec, the store, the shape rules, the extra facts, the status details and the tie-break
/// keys derive from.
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
    /// How the field is checked if it is a status detail: an optional value of a proven
    /// outcome kept in `StatusUpdate.details` under its key.
    let statusDetail: StatusDetailRule?

    init(
        _ encoding: FieldEncoding,
        _ register: RecordRegister?,
        onlyOf: TransactionKind? = nil,
        extraFact: ExtraFactRule? = nil,
        statusDetail: StatusDetailRule? = nil
    ) {
        self.encoding = encoding
        self.register = register
        self.onlyOf = onlyOf
        self.extraFact = extraFact
        self.statusDetail = statusDetail
    }
}
