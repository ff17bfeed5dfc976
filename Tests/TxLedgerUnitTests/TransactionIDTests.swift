import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

struct TransactionIDTests {
    /// Vectors computed independently with Python's hashlib.blake2b (digest_size=16) over the
    /// length-prefixed encoding of Specs/schema.md.
    @Test func matchesTheSpecVectors() throws {
        #expect(try Fixture.minimalSend(hash: 1).id.rawValue == "f5e912f53e847ac6c6bdef7a84082e66")
        #expect(try Fixture.signature().id.rawValue == "38cc209c648c62abed2c9949566fdf83")
        let btc = try TransactionFacts(
            vaultId: "main",
            chain: try Chain(parsing: "btc"),
            timestamp: Fixture.start,
            txHash: String(repeating: "AB", count: 32),
            details: .send(
                try SendDetails(
                    toAddress: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
                    amount: try DecimalAmount("0.1"),
                    token: try Token(symbol: "BTC")
                )
            )
        )
        #expect(btc.id.rawValue == "fa333d3dbb39c9d43804e2035ca6f330")
    }

    @Test func theSameTransactionSpelledDifferentlyHasOneID() throws {
        func facts(chain: String, hash: String, at: Date, amount: String) throws -> TransactionFacts {
            try TransactionFacts(
                vaultId: "v",
                chain: try Chain(parsing: chain),
                timestamp: at,
                txHash: hash,
                details: .send(
                    try SendDetails(
                        toAddress: Fixture.evmAddress(1),
                        amount: try DecimalAmount(amount),
                        token: try Token(symbol: "ETH")
                    )
                )
            )
        }
        let hex = String(repeating: "Ab", count: 32)
        let a = try facts(chain: "ethereum", hash: "0x" + hex, at: Fixture.start, amount: "1")
        let b = try facts(chain: "0x1", hash: hex.lowercased(), at: Fixture.start.addingTimeInterval(5), amount: "2")
        #expect(a.id == b.id)
        #expect(a.txHash == b.txHash)
    }

    @Test func vaultChainAndHashEachChangeTheID() throws {
        let base = try Fixture.minimalSend(vault: "a", hash: 1)
        #expect(try Fixture.minimalSend(vault: "b", hash: 1).id != base.id)
        #expect(try Fixture.minimalSend(vault: "a", hash: 2).id != base.id)
        let onBase = try TransactionFacts(
            vaultId: "a",
            chain: try Chain(parsing: "base"),
            timestamp: Fixture.start,
            txHash: Fixture.evmHash(1),
            details: base.facts.details
        )
        #expect(onBase.id != base.id)
    }

    @Test func signatureIDsComeFromTheirContent() throws {
        #expect(try Fixture.signature(message: "a").id == Fixture.signature(message: "a", at: Date()).id)
        #expect(try Fixture.signature(message: "a").id != Fixture.signature(message: "b").id)
    }

    @Test func lengthPrefixesKeepPartsApart() {
        #expect(TransactionID.derive("d", ["ab", "c"]) != TransactionID.derive("d", ["a", "bc"]))
    }

    @Test func signaturesHaveNoHashAndSendsNeedOne() throws {
        let message = try SignatureDetails(message: "hi")
        #expect(throws: LedgerError.self) {
            try TransactionFacts(
                vaultId: "v",
                chain: Fixture.ethereum,
                timestamp: Fixture.start,
                txHash: Fixture.evmHash(1),
                method: "personal_sign",
                details: .signature(message)
            )
        }
        #expect(throws: LedgerError.self) {
            try TransactionFacts(
                vaultId: "v",
                chain: Fixture.ethereum,
                timestamp: Fixture.start,
                txHash: nil,
                details: .signature(message)
            )
        }
        #expect(throws: LedgerError.self) {
            try TransactionFacts(
                vaultId: "v",
                chain: Fixture.ethereum,
                timestamp: Fixture.start,
                txHash: nil,
                details: Fixture.minimalSend(hash: 1).facts.details
            )
        }
    }

    @Test func parsesIDsInEitherCase() {
        #expect(TransactionID("F5E912F53E847AC6C6BDEF7A84082E66")?.rawValue == "f5e912f53e847ac6c6bdef7a84082e66")
        #expect(TransactionID("f5e912") == nil)
        #expect(TransactionID(String(repeating: "g", count: 32)) == nil)
        #expect(TransactionID(String(repeating: "a", count: 33)) == nil)
    }

    /// An id kept as its 16 bytes reads back as the same text, and ids order as their texts do
    /// (the store's keyset pages and a merge's id order rely on it).
    @Test func bytesRoundTripAndOrderAsTheText() {
        var generator = SystemRandomNumberGenerator()
        let ids = (0..<500).map { _ in
            TransactionID(bytes: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })!
        }
        for id in ids {
            #expect(TransactionID(bytes: id.bytes) == id)
            #expect(TransactionID(id.rawValue) == id)
            #expect(id.rawValue.count == 32 && id.rawValue == id.rawValue.lowercased())
        }
        #expect(ids.sorted().map(\.rawValue) == ids.map(\.rawValue).sorted())
        #expect(TransactionID(bytes: [UInt8](repeating: 0, count: 15)) == nil)
        let known = TransactionID(bytes: [0x0f] + [UInt8](repeating: 0xa0, count: 15))
        #expect(known?.rawValue == "0f" + String(repeating: "a0", count: 15))
    }
}
