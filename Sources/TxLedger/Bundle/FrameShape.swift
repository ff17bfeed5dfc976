import GRDB

/// What a record frame must hold beyond each field's own validity (Specs/bundle-format.md,
/// "Record frames"): a register's stamp comes whole, its value comes with its stamp, fields
/// belong to the record's kind, and no text is empty. A reader refuses a frame that breaks one
/// of these instead of repairing it: a writer never makes one.
enum FrameShape {
    /// The fields only a record of that kind has.
    private static let kindFields: [String: Set<String>] = [
        "send": [
            "to_address", "amount", "token_symbol", "token_contract", "token_decimals", "token_logo", "fee_estimate",
            "memo",
        ],
        "swap": [
            "from_token_symbol", "from_token_contract", "from_token_decimals", "from_amount", "from_chain",
            "from_token_logo", "to_token_symbol", "to_token_contract", "to_token_decimals", "to_amount", "min_payout",
            "to_chain", "to_token_logo", "provider", "route",
        ],
        "signature": ["message", "signature"],
    ]
    private static let allKindFields = kindFields.values.reduce(into: Set<String>()) { $0.formUnion($1) }

    /// Each register's value fields; `required` ones must come with the stamp.
    private static let registers: [(name: String, values: [String], required: [String])] = [
        ("facts", [], []),
        ("pending", [], []),
        ("terminal", ["terminal_status", "confirmed_at_ms", "failure_reason"], ["terminal_status"]),
        ("note", ["note"], []),
        ("labels", ["labels"], ["labels"]),
        ("hidden", ["hidden"], ["hidden"]),
    ]

    /// - Throws: `BundleError.malformedContent` naming record `index` and what is wrong.
    static func check(_ values: RecordValues, record index: Int) throws {
        func fail(_ reason: String) -> BundleError { .malformedContent("record \(index): \(reason)") }
        for column in RecordFrameField.all.map(\.column) {
            if case let .string(text) = values[column].storage, text.isEmpty {
                throw fail("\(column) is empty (an absent field is left out)")
            }
        }
        for register in registers {
            let hasTime = !values["\(register.name)_time"].isNull
            let hasReplica = !values["\(register.name)_replica"].isNull
            guard hasTime == hasReplica else {
                throw fail(
                    "the \(register.name) stamp has its \(hasTime ? "time" : "replica") without its \(hasTime ? "replica" : "time")"
                )
            }
            if hasTime {
                if let missing = register.required.first(where: { values[$0].isNull }) {
                    throw fail("the \(register.name) register has no \(missing)")
                }
            } else if let stray = register.values.first(where: { !values[$0].isNull }) {
                throw fail("\(stray) comes without the \(register.name) register's stamp")
            }
        }
        if case let .string(kind) = values["kind"].storage, let own = kindFields[kind],
            let stray = allKindFields.subtracting(own).sorted().first(where: { !values[$0].isNull })
        {
            throw fail("a \(kind) record has no \(stray)")
        }
    }

    /// A frame carries `explorer_url` only when it differs from the chain's default page
    /// (chains.md, "Default explorer page").
    static func checkExplorerURL(sent: Bool, of record: RecordState, record index: Int) throws {
        let facts = record.facts.value
        if sent, let url = facts.explorerUrl, url == facts.txHash.flatMap(facts.chain.explorerURL(txHash:)) {
            throw BundleError.malformedContent(
                "record \(index): explorer_url is the chain's default page, which a writer leaves out"
            )
        }
    }
}
