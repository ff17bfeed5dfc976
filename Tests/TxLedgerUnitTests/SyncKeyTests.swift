import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// The sync key's printable form and key files.
@Suite struct SyncKeyTests {
    private func text(_ key: SyncKey) -> String {
        String(decoding: key.printableBytes().withUnsafeBytes { Array($0) }, as: UTF8.self)
    }

    private func bytes(_ key: SyncKey) -> [UInt8] { key.secret.withUnsafeBytes { Array($0) } }

    @Test func thePrintableFormRoundTripsHoweverItIsTyped() throws {
        for _ in 0..<50 {
            let key = SyncKey.generate()
            let printed = text(key)
            #expect(printed.hasPrefix("TXLK1-") && printed.hasSuffix("\n") && printed.count == 78)
            let groups = printed.trimmingCharacters(in: .newlines).components(separatedBy: "-")
            #expect(groups.count == 13 && groups.dropFirst().allSatisfy { $0.count == 5 })
            for variant in [
                printed, printed.lowercased(), printed.replacingOccurrences(of: "-", with: " "),
                printed.replacingOccurrences(of: "-", with: ""), "  " + printed + "\r\n",
                "TXLK1-"
                    + printed.dropFirst(6).replacingOccurrences(of: "0", with: "O").replacingOccurrences(
                        of: "1",
                        with: "l"
                    ),
            ] {
                #expect(bytes(try SyncKey(printable: variant)) == bytes(key))
            }
        }
    }

    @Test func everySingleMistypedSymbolIsCaught() throws {
        let printed = Array(text(.generate()))
        let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        for index in printed.indices where index >= 6 && printed[index] != "-" && printed[index] != "\n" {
            var typo = printed
            typo[index] = alphabet[(alphabet.firstIndex(of: printed[index])! + 7) % alphabet.count]
            #expect(throws: BundleError.invalidKey("its checksum does not match; a character is mistyped")) {
                try SyncKey(printable: String(typo))
            }
        }
    }

    @Test func malformedTextIsRefusedWithItsReason() {
        #expect(throws: BundleError.invalidKey("it does not start with TXLK1")) { try SyncKey(printable: "hello") }
        #expect(throws: BundleError.invalidKey("it has 3 symbols after the prefix instead of 60")) {
            try SyncKey(printable: "TXLK1-ABC")
        }
        #expect(throws: BundleError.invalidKey("symbol 1 is not a base32 character")) {
            try SyncKey(printable: "TXLK1-U" + String(repeating: "0", count: 59))
        }
    }

    @Test func aKeyFileIsCreatedPrivateAndReadBack() throws {
        let folder = try TemporaryDirectory()
        let key = SyncKey.generate()
        let path = folder.path("k.key")
        try key.write(toNewFile: path)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(!SyncKey.isExposed(file: path))
        #expect(bytes(try SyncKey(contentsOfFile: path)) == bytes(key))
        #expect(throws: BundleError.io(path: path, reason: "the file exists; a key is never overwritten")) {
            try SyncKey.generate().write(toNewFile: path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        #expect(SyncKey.isExposed(file: path))
    }

    /// An app keeps the printable text in the Keychain or shows it as a QR code, and reads it back.
    @Test func thePrintableTextIsTheKeyFilesLineAndReadsBack() throws {
        let key = SyncKey.generate()
        let shown = key.printableText()
        #expect(shown + "\n" == text(key) && shown.count == 77)
        #expect(bytes(try SyncKey(printable: shown)) == bytes(key))
        #expect(!String(describing: key).contains(shown.dropFirst(6).prefix(5)))
    }

    @Test func aKeyNeverPrintsItsBytes() throws {
        let key = SyncKey.generate()
        let printed = text(key)
        for description in [
            String(describing: key), String(reflecting: key), "\(BundleSecret.syncKey(key))",
            String(describing: try Passphrase("hunter2 hunter2")),
        ] {
            #expect(!description.contains(printed.dropFirst(6).prefix(5)) && !description.contains("hunter2"))
            #expect(description.contains("<secret: "))
        }
    }
}
