import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore

/// Text from outside the process is escaped in every message (Specs/threat-model.md, section 2).
struct OutsideTextTests {
    @Test func controlFormatAndSeparatorCharactersAreEscapedAndTheRestKept() {
        #expect(OutsideText.escaped("plain name-1.txb") == "plain name-1.txb")
        #expect(OutsideText.escaped("é 日本 ✓") == "é 日本 ✓")
        #expect(OutsideText.escaped("a\nb\rc\td\\e") == #"a\nb\rc\td\\e"#)
        #expect(OutsideText.escaped("\u{1B}[2J\u{7F}\u{85}") == #"\u{1B}[2J\u{7F}\u{85}"#)
        #expect(OutsideText.escaped("x\u{202E}y\u{200B}z\u{2028}") == #"x\u{202E}y\u{200B}z\u{2028}"#)
        #expect(OutsideText.escaped(String(repeating: "a", count: 600)).count == 513)
    }

    @Test func errorsEscapeWhatTheyQuote() {
        let hostile = "evil\n\u{1B}[31mtxledger: forged"
        let messages = [
            LedgerError.invalidInput(field: "memo", reason: "'\(hostile)' is bad").errorDescription,
            LedgerError.unreadableDatabase(path: hostile, reason: "x").errorDescription,
            LedgerError.notFound(hostile).errorDescription,
            LedgerError.output(path: hostile, reason: "x").errorDescription,
            BundleError.io(path: hostile, reason: "x").errorDescription,
            BundleError.malformedContent("record 0: '\(hostile)'").errorDescription,
        ]
        for message in messages {
            let text = message ?? ""
            #expect(!text.contains("\n") && !text.contains("\u{1B}") && text.contains(#"evil\n\u{1B}[31m"#), "\(text)")
        }
    }
}
