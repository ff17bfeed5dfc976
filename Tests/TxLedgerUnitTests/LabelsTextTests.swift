import Foundation
import PropertyBased
import Testing

@testable import TxLedgerCore

/// The labels register's text (Specs/schema.md: a JSON array of strings) is written and read
/// without Foundation's JSON coders for labels that need no escape: the bytes and the labels
/// must be exactly theirs, for every label, escaped or not.
struct LabelsTextTests {
    /// Characters a label may hold and a few it may not, each class that JSON treats apart:
    /// plain ASCII, the quote, the backslash and the slash, control characters, DEL, accented
    /// letters composed and decomposed, and a character beyond the BMP.
    private static let characters: [Character] = [
        "a", "Z", "0", " ", ",", "[", "]", "-", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{7F}", "é", "e\u{301}",
        "\u{2028}", "😀",
    ]

    private static let labels = Gen.element(of: characters).map { $0! }.string(of: 0...6).array(of: 0...5)

    @Test func labelsAreWrittenAsJSONEncoderWritesThem() async {
        await propertyCheck(count: 500, input: Self.labels) { labels in
            let expected = String(decoding: try! JSONEncoder().encode(labels), as: UTF8.self)
            #expect(RecordFields.encodeLabels(labels) == expected)
        }
    }

    /// The escapes Specs/schema.md ("Labels") lists, byte for byte.
    @Test func labelsAreWrittenAsTheSpecSays() {
        #expect(RecordFields.encodeLabels([]) == "[]")
        #expect(RecordFields.encodeLabels(["a/b", "é"]) == #"["a\/b","é"]"#)
        #expect(RecordFields.encodeLabels(["q\"", "b\\s"]) == #"["q\"","b\\s"]"#)
        #expect(
            RecordFields.encodeLabels(["\u{8}\u{9}\u{A}\u{C}\u{D}", "\u{1}\u{1F}\u{7F}\u{2028}😀"])
                == "[\"\\b\\t\\n\\f\\r\",\"\\u0001\\u001f\u{7F}\u{2028}😀\"]"
        )
    }

    @Test func labelsAreReadAsJSONDecoderReadsThem() async throws {
        await propertyCheck(count: 500, input: Self.labels) { labels in
            let text = String(decoding: try! JSONEncoder().encode(labels), as: UTF8.self)
            #expect((try? RecordFields.decodeLabels(text)) == labels)
        }
        // Texts that are not a writer's: the plain reading takes only what JSONDecoder reads
        // the same way, and leaves every other text to it.
        let jsonish = Gen.element(of: Array("[]\",\\ a/é\u{7F}\n")).map { $0! }.string(of: 0...10)
        await propertyCheck(count: 2000, input: jsonish) { text in
            let decoded = try? JSONDecoder().decode([String].self, from: Data(text.utf8))
            if let plain = RecordFields.plainLabels(text) { #expect(plain == decoded, "\(text.debugDescription)") }
        }
        for (text, expected) in [
            ("[]", []), ("[\"\"]", [""]), ("[\"a\",\"b,c\"]", ["a", "b,c"]), ("[\"é/x\"]", ["é/x"]),
        ] as [(String, [String])] {
            #expect(RecordFields.plainLabels(text) == expected)
        }
        for text in ["", "[", "[\"a\",]", "[,\"a\"]", "[\"a\"\"b\"]", "[\"a\\\"\"]", "[ \"a\"]", "[\"\n\"]"] {
            #expect(RecordFields.plainLabels(text) == nil, "\(text.debugDescription)")
        }
    }

    @Test func asciiLabelsAreTheirOwnNFCForm() async throws {
        let ascii = Gen.element(of: Array("aZ0 -_.")).map { $0! }.string(of: 1...8).array(of: 1...5)
        await propertyCheck(count: 200, input: ascii) { labels in
            let converted = labels.map(\.precomposedStringWithCanonicalMapping)
            let normalized = try? TransactionRecord.normalizedLabels(labels)
            #expect(normalized != nil && normalized == (try? TransactionRecord.normalizedLabels(converted)))
        }
        #expect(try TransactionRecord.normalizedLabels(["e\u{301}", "é"]) == ["é"])
    }
}
