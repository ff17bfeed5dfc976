import Foundation

/// One line of a BIP-329 label file (Specs/labels.md): a JSON object with a `type`, the `ref`
/// it labels, and its `label`. Other keys (`origin`, `spendable`, ...) are read past.
package struct BIP329Line: Decodable, Equatable {
    package let type: String
    package let ref: String
    package let label: String?

    /// The lines of a file's bytes; blank lines are skipped, and an empty label is none.
    /// - Throws: `LedgerError.invalidInput` (field `labels`) naming the first line that is not
    ///   a JSON object with a string `type` and `ref` (and, if present, a string `label` that
    ///   is a valid note).
    package static func lines(of data: Data) throws -> [BIP329Line] {
        var lines: [BIP329Line] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            guard !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") })
            else { continue }
            let decoded: BIP329Line
            do {
                decoded = try JSONDecoder().decode(BIP329Line.self, from: Data(line))
            } catch {
                throw LedgerError.invalidInput(
                    field: "labels",
                    reason: "line \(index + 1) is not a BIP-329 label (a JSON object with a string type and ref)"
                )
            }
            // An empty label labels nothing.
            let parsed = BIP329Line(
                type: decoded.type,
                ref: decoded.ref,
                label: decoded.label?.isEmpty == false ? decoded.label : nil
            )
            if parsed.type == "tx", let label = parsed.label {
                do {
                    _ = try TextField.note.validate(label, field: "label")
                } catch let error as LedgerError where error.code == .invalidInput {
                    throw LedgerError.invalidInput(
                        field: "labels",
                        reason: "line \(index + 1): the label \(error.reason ?? "")",
                        underlying: error
                    )
                }
            }
            lines.append(parsed)
        }
        return lines
    }

    /// The line labelling transaction `ref` with `label`, as a writer writes it.
    package static func transaction(_ ref: String, label: String) -> String {
        #"{"type":"tx","ref":"# + json(ref) + #","label":"# + json(label) + "}\n"
    }

    private static func json(_ text: String) -> String {
        // Encoding a String cannot fail.
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }
}
