/// Text that came from outside the process (file names, folder entries, vault names read from
/// another file, a server's answer) made safe to put in a message for a person or a log: it
/// cannot start a line of its own, move the cursor, colour or clear a terminal, or reorder
/// what follows it (Specs/threat-model.md, section 2).
public enum OutsideText {
    /// `text` with each control character (C0, DEL, C1), format character (bidirectional
    /// overrides, zero-width marks), line or paragraph separator and backslash written as an
    /// escape: `\n`, `\r`, `\t`, `\\`, else `\u{HEX}`. Printable text is unchanged; at most
    /// `limit` characters of `text` are kept, then `…`.
    public static func escaped(_ text: some StringProtocol, limit: Int = 512) -> String {
        var out = ""
        for (index, scalar) in text.unicodeScalars.enumerated() {
            guard index < limit else {
                out += "…"
                break
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\\": out += "\\\\"
            default:
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                default:
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
