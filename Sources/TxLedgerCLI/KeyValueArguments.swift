import ArgumentParser

/// The values of a repeatable `KEY=VALUE` option (`record --fact`, `status --detail`).
enum KeyValueArguments {
    /// `items` by key, added to `given` (what dedicated options set).
    /// - Throws: `ValidationError` naming `option` for an item without `=` or a key given twice.
    static func parse(
        _ items: [String],
        option: String,
        adding given: [String: String] = [:]
    ) throws
        -> [String: String]
    {
        var values = given
        for item in items {
            guard let equals = item.firstIndex(of: "="), values[String(item[..<equals])] == nil else {
                throw ValidationError("\(option) takes KEY=VALUE, each key once: '\(item.prefix(60))'")
            }
            values[String(item[..<equals])] = String(item[item.index(after: equals)...])
        }
        return values
    }
}
