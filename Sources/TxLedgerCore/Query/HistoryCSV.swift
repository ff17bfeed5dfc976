/// The CSV of a history (RFC 4180): one header line, then one line per record, fields separated
/// by commas, lines ended by CRLF; TxLedger's own columns, which `Specs/queries.md` defines.
package enum HistoryCSV {
    static let columns = RecordColumn.all.map(\.csv)

    /// A record's fields, in `columns` order; `nil` for an empty one.
    static func fields(_ r: TransactionRecord) -> [String?] {
        RecordColumn.all.map { $0.text(r) }
    }

    package static func line(_ fields: [String?]) -> String {
        fields.map { field($0 ?? "") }.joined(separator: ",") + "\r\n"
    }

    /// A field quoted when it holds a comma, a quote or a line break (quotes doubled). Text
    /// that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or CR)
    /// gets a leading `'` first; no ledger-made field starts so, only free text can.
    static func field(_ text: String) -> String {
        var text = text
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) {
            text = "'" + text
        }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
