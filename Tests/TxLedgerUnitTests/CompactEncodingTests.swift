import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Format 2's primitives (Specs/bundle-format.md, "Primitives"): compact texts, shared texts and
/// times as differences. Each has exactly one encoding, and a reader refuses any other.
@Suite struct CompactEncodingTests {
    private func read<T>(_ bytes: [UInt8], _ body: (inout FrameBytes) throws -> T) throws -> T {
        var frame = FrameBytes(bytes)
        let value = try body(&frame)
        #expect(frame.isAtEnd, "every byte is read")
        return value
    }

    @Test(arguments: [
        ("0xab01", "09ab01"), ("ab01", "0aab01"), ("AB01", "0bab01"), ("12", "0612"), ("0x12", "0512"),
        ("0x", "083078"), ("0xAB", "1030784142"), ("abc", "0c616263"), ("aB", "086142"), ("", "00"),
        ("0x0", "0c307830"),
        ("é", "08c3a9"), ("1", "0431"),
    ])
    func eachTextHasItsForm(text: String, hex: String) throws {
        var bytes: [UInt8] = []
        bytes.appendCompactText(text)
        #expect(PayloadEncodingTests.hex(bytes) == hex)
        #expect(try read(bytes) { try $0.readCompactText(limit: 100) } == text)
    }

    /// The spec's rule, written as it reads: the first of forms 1, 2, 3 that can write the
    /// text, else 0.
    private static func specForm(_ text: String) -> CompactText.Form {
        func isHex(_ s: Substring, _ letters: String) -> Bool {
            !s.isEmpty && s.count % 2 == 0 && s.allSatisfy { "0123456789".contains($0) || letters.contains($0) }
        }
        if text.count >= 4, text.hasPrefix("0x"), isHex(text.dropFirst(2), "abcdef") { return .prefixedLowerHex }
        if isHex(text[...], "abcdef") { return .lowerHex }
        if isHex(text[...], "ABCDEF") { return .upperHex }
        return .utf8
    }

    @Test func theWritersFormIsTheSpecsRuleOnRandomTexts() throws {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("0x1aAfFgX9")
        for _ in 0..<20_000 {
            let text = String(
                (0..<Int.random(in: 0...9, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            )
            var utf8 = text
            #expect(utf8.withUTF8(CompactText.form(of:)) == Self.specForm(text), "\(text)")
            var bytes: [UInt8] = []
            bytes.appendCompactText(text)
            #expect(try read(bytes) { try $0.readCompactText(limit: 100) } == text)
        }
    }

    /// The reader decides on the bytes whether a hex form is the text's own; it must agree with
    /// the spec's rule on the text those bytes stand for, for every form and short byte string.
    @Test func theReaderAcceptsExactlyTheTextsWrittenInTheirOwnForm() throws {
        let interesting: [UInt8] = [0x00, 0x09, 0x0a, 0x12, 0x30, 0x78, 0x90, 0xa0, 0xab, 0xff]
        var strings: [[UInt8]] = [[]]
        for length in 1...2 {
            strings += strings.filter { $0.count == length - 1 }.flatMap { prefix in interesting.map { prefix + [$0] } }
        }
        for bytes in strings {
            for form in [CompactText.Form.prefixedLowerHex, .lowerHex, .upperHex] {
                let text = bytes.withUnsafeBufferPointer { CompactText.text($0, form: form) }
                let written = [UInt8(bytes.count << 2 | Int(form.rawValue))] + bytes
                let read = try? read(written) { try $0.readCompactText(limit: 100) }
                #expect((read != nil) == (Self.specForm(text) == form), "\(bytes) in form \(form)")
                if let read { #expect(read == text) }
            }
        }
    }

    @Test func aTextInAnotherFormThanItsOwnIsRefused() {
        let notCompact = BundleError.malformedContent("a text is not in its compact form")
        // "ab" written as UTF-8, "12" as uppercase hex, "0x" as prefixed hex of no bytes, "0xab" as UTF-8.
        for bytes: [UInt8] in [[0x08, 0x61, 0x62], [0x07, 0x12], [0x01], [0x10, 0x30, 0x78, 0x61, 0x62]] {
            #expect(throws: notCompact, "\(bytes)") { try read(bytes) { try $0.readCompactText(limit: 100) } }
        }
        #expect(throws: BundleError.malformedContent("a text is not valid UTF-8")) {
            try read([0x08, 0xC3, 0x28]) { try $0.readCompactText(limit: 100) }
        }
        #expect(throws: BundleError.malformedContent("a text length 3 exceeds 2")) {
            try read([0x0E, 1, 2, 3]) { try $0.readCompactText(limit: 2) }
        }
    }

    @Test func sharedTextsAreWrittenOnceAndReferredTo() throws {
        var writer = SharedTextTable()
        var bytes: [UInt8] = []
        for text in ["ethereum", "send", "ethereum", "ethereum", "send"] {
            bytes.appendSharedText(text, table: &writer)
        }
        #expect(
            PayloadEncodingTests.hex(bytes) == "01" + "20657468657265756d" + "02" + "1073656e64" + "01" + "01" + "02"
        )
        var reader = SharedTextTable()
        let texts = try read(bytes) { frame in
            try (0..<5).map { _ in try frame.readSharedText(limit: 100, table: &reader) }
        }
        #expect(texts == ["ethereum", "send", "ethereum", "ethereum", "send"])
        #expect(reader.entries == ["ethereum", "send"])
    }

    @Test func aSharedTextOutsideTheRulesIsRefused() {
        func refused(_ bytes: [UInt8], table: SharedTextTable = SharedTextTable(), _ message: String) {
            var table = table
            #expect(throws: BundleError.malformedContent(message), "\(bytes)") {
                try read(bytes) { try $0.readSharedText(limit: 100, table: &table) }
            }
        }
        var one = SharedTextTable()
        one.add("send")
        refused([3], table: one, "a shared text reference 3 exceeds 2")
        refused([2, 0x10] + Array("send".utf8), table: one, "a shared text is written out although the table holds it")
        refused(
            [0, 0x10] + Array("swap".utf8),
            table: one,
            "a shared text is written out although the table has room for it"
        )
    }

    @Test func aFullTableWritesNewTextsOutAndRefusesMoreEntries() throws {
        var table = SharedTextTable()
        for index in 0..<SharedTextTable.maxEntries { table.add(String(index)) }
        var bytes: [UInt8] = []
        bytes.appendSharedText("new", table: &table)
        #expect(bytes == [0, 0x0C] + Array("new".utf8), "written out, not added")
        var reader = table
        #expect(try read(bytes) { try $0.readSharedText(limit: 100, table: &reader) } == "new")
        #expect(reader.entries.count == SharedTextTable.maxEntries)
        var entry: [UInt8] = []
        entry.appendUVarint(UInt64(SharedTextTable.maxEntries) + 1)
        #expect(
            throws: BundleError.malformedContent("the table of shared texts exceeds 65536 entries or 16777216 bytes")
        ) {
            try read(entry + [0x0C] + Array("new".utf8)) { try $0.readSharedText(limit: 100, table: &reader) }
        }
    }

    @Test func stampTimesRoundTripAsDifferencesAtTheirEdges() throws {
        for (time, base): (Int64, Int64) in [
            (0, 0), (Stamp.latestTime, 0), (Stamp.latestTime, Int64.min), (Int64.max, 1_751_371_200_000),
            (Int64.min, Int64.max), (1_751_371_200_000 << 16 | 0xFFFF, 1_751_371_200_000),
        ] {
            var bytes: [UInt8] = []
            bytes.appendStampTime(time, base: base)
            #expect(try read(bytes) { try $0.readStampTime(base: base) } == time, "\(time) from \(base)")
        }
        var sameMillisecond: [UInt8] = []
        sameMillisecond.appendStampTime(1_751_371_200_000 << 16 | 7, base: 1_751_371_200_000)
        #expect(sameMillisecond == [0, 7], "a stamp in its base's millisecond takes two bytes")
    }

    @Test func aStampTimeBeyondSixtyFourBitsOrWithoutItsBaseIsRefused() throws {
        var bytes: [UInt8] = []
        bytes.appendSVarint(1 << 48)
        bytes.appendUVarint(0)
        #expect(throws: BundleError.malformedContent("a stamp time overflows 64 bits")) {
            try read(bytes) { try $0.readStampTime(base: 0) }
        }
        #expect(throws: BundleError.malformedContent("a stamp counter 65536 exceeds 65535")) {
            try read([0, 0x80, 0x80, 0x04]) { try $0.readStampTime(base: 0) }
        }
        var bases = FrameTimeBases()
        #expect(throws: BundleError.malformedContent("field 37 comes without timestamp_ms")) {
            try bases.base(of: 37, .stampTime)
        }
        #expect(throws: BundleError.malformedContent("field 42 comes without timestamp_ms")) {
            try bases.base(of: 42, .sinceTimestamp)
        }
        bases.pass(3, value: 1000)
        #expect(try bases.base(of: 42, .sinceTimestamp) == 1000)
        #expect(throws: BundleError.malformedContent("field 44 comes without facts_time")) {
            try bases.base(of: 44, .stampTime)
        }
        bases.pass(37, value: 2000 << 16 | 5)
        #expect(try bases.base(of: 44, .stampTime) == 2000 && bases.base(of: 37, .stampTime) == 1000)
    }
}
