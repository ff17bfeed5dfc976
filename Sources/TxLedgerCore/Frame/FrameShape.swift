/// What a record frame must hold beyond each field's own validity (Specs/bundle-format.md,
/// "Record frames"): a register's stamp comes whole, its value comes with its stamp, fields
/// belong to the record's kind, and no text is empty. A reader refuses a frame that breaks one
/// of these instead of repairing it: a writer never makes one.
enum FrameShape {
    /// - Throws: `BundleError.malformedContent` naming record `index` and what is wrong.
    static func check(_ fields: RecordFields, record index: Int) throws {
        func fail(_ reason: String) -> BundleError { .malformedContent("record \(index): \(reason)") }
        if let empty = fields.firstEmptyText {
            throw fail("\(empty.name) is empty (an absent field is left out)")
        }
        for register in registers {
            let hasTime = fields.has(register.stamp.time)
            let hasReplica = fields.has(register.stamp.replica)
            guard hasTime == hasReplica else {
                throw fail(
                    "the \(register.name) stamp has its \(hasTime ? "time" : "replica") without its \(hasTime ? "replica" : "time")"
                )
            }
            if hasTime {
                if let missing = register.required.first(where: { !fields.has($0) }) {
                    throw fail("the \(register.name) register has no \(missing.name)")
                }
            } else if let stray = register.values.first(where: fields.has) {
                throw fail("\(stray.name) comes without the \(register.name) register's stamp")
            }
        }
        if case let .text(name)? = fields[.kind], let kind = TransactionKind(rawValue: name),
            kindFacts.contains(where: { $0.onlyOf != kind && fields.has($0) }),
            let stray = kindFacts.filter({ $0.onlyOf != kind && fields.has($0) }).min(by: { $0.name < $1.name })
        {
            throw fail("a \(kind.rawValue) record has no \(stray.name)")
        }
    }

    /// The registers with their stamps and value fields, built once (checked for every record).
    private static let registers = RecordRegister.allCases.map { register in
        (name: register.rawValue, stamp: register.stamp, required: register.required, values: register.values)
    }

    /// The facts that only one kind of record has.
    private static let kindFacts = RecordField.all.filter { $0.onlyOf != nil }

    /// A frame carries `explorer_url` only when it differs from the chain's default page
    /// (chains.md, "Default explorer page").
    static func checkExplorerURL(sent: Bool, of record: RecordState, record index: Int) throws {
        let facts = record.facts.value
        if sent, facts.hasDefaultExplorerUrl {
            throw BundleError.malformedContent(
                "record \(index): explorer_url is the chain's default page, which a writer leaves out"
            )
        }
    }
}
