import Foundation
import Testing

@testable import TxLedgerCore

/// An input error names a record's field by its path in the record's JSON (Specs/schema.md,
/// below the fields' table), whichever way the record came in.
struct FieldVocabularyTests {
    private static var send: [String: Any] {
        [
            "vaultId": "main", "kind": "send", "chain": "ethereum", "timestamp": "2025-07-01T12:00:00Z",
            "txHash": "0x" + String(repeating: "ab", count: 32),
            "fromAddress": "0x" + String(repeating: "11", count: 20),
            "toAddress": "0x" + String(repeating: "22", count: 20), "amount": "1",
            "token": ["symbol": "ETH", "decimals": 18], "app": ["domain": "example.org"],
        ]
    }

    private func field(replacing key: String, with value: Any) throws -> String? {
        var object = Self.send
        object[key] = value
        let data = try JSONSerialization.data(withJSONObject: object)
        let error = #expect(throws: LedgerError.self) { try JSONDecoder().decode(TransactionRecord.self, from: data) }
        return error?.field
    }

    @Test func aRecordsFieldIsNamedByItsJSONPath() throws {
        #expect(try field(replacing: "toAddress", with: "nope") == "toAddress")
        #expect(try field(replacing: "fromAddress", with: "nope") == "fromAddress")
        #expect(try field(replacing: "txHash", with: "nope") == "txHash")
        #expect(try field(replacing: "token", with: ["symbol": "ETH", "decimals": 999]) == "token.decimals")
        #expect(try field(replacing: "app", with: ["domain": "a\nb"]) == "app.domain")
        #expect(try field(replacing: "feePaid", with: "1e5") == "feePaid")
    }
}
