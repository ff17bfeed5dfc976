/// The fields kept by key (the extra facts, the status details) in JSON: each under its key, a
/// text field's value as a string, an integer field's as a number.
extension RecordField {
    /// Writes `values`, keyed by field key, into `encoder`'s keyed container, in `fields`' order.
    package static func encode(_ fields: [RecordField], _ values: [String: String], to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        for field in fields {
            guard let value = values[field.key] else { continue }
            if field.encoding == .integer, let number = UInt64(value) {
                try container.encode(number, forKey: JSONKey(field.key))
            } else {
                try container.encode(value, forKey: JSONKey(field.key))
            }
        }
    }

    /// The values of `fields` that `decoder`'s keyed container holds, by field key, as text.
    /// - Throws: `LedgerError.invalidInput` naming the key of an integer field whose value is
    ///   not a whole number from 0 to 2^64 - 1 (its rule narrows it further).
    static func decode(_ fields: [RecordField], from decoder: Decoder) throws -> [String: String] {
        let container = try decoder.container(keyedBy: JSONKey.self)
        var values: [String: String] = [:]
        for field in fields {
            let key = JSONKey(field.key)
            guard field.encoding == .integer else {
                values[field.key] = try container.decodeIfPresent(String.self, forKey: key)
                continue
            }
            do {
                values[field.key] = try container.decodeIfPresent(UInt64.self, forKey: key).map { String($0) }
            } catch {
                throw LedgerError.invalidInput(field: field.key, reason: ExtraFactRule.wholeNumber, underlying: error)
            }
        }
        return values
    }
}

/// A field's key in a record's JSON: its `RecordField.key`.
private struct JSONKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ key: String) { stringValue = key }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { nil }
}
