import Testing

@testable import TxLedgerCore

/// The free-text rules (Specs/schema.md): a line holds no control character, a text may hold
/// newlines, tabs and carriage returns; neither holds another control character nor DEL, and
/// any other character of any length in UTF-8 passes.
@Suite struct TextFieldTests {
    private static let line = TextField.line(max: 64)
    private static let text = TextField.text(max: 64)

    @Test(arguments: ["\n", "\t", "\r"])
    func aLineRefusesWhatATextAllows(whitespace: String) throws {
        let value = "a\(whitespace)b"
        #expect(try Self.text.validate(value, field: "note") == value)
        #expect(throws: LedgerError.self) { try Self.line.validate(value, field: "label") }
    }

    @Test(arguments: [0x00, 0x07, 0x0B, 0x1B, 0x1F, 0x7F])
    func bothRefuseEveryOtherControlCharacter(code: Int) {
        let value = "a" + String(UnicodeScalar(UInt8(code))) + "b"
        let hex = String(code, radix: 16, uppercase: true)
        for field in [Self.line, Self.text] {
            #expect(
                throws: LedgerError.invalidInput(field: "note", reason: "contains the control character U+\(hex)")
            ) { try field.validate(value, field: "note") }
        }
    }

    @Test func charactersBeyondASCIIPass() throws {
        for value in ["é", "e\u{0301}", "日本", "🪙", "\u{80}\u{9F}", "a b"] {
            #expect(try Self.line.validate(value, field: "label") == value)
            #expect(try Self.text.validate(value, field: "note") == value)
        }
    }
}
