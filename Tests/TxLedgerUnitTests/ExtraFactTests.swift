import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Extra facts (Specs/schema.md, "Extra facts"): one entry of the field list each, checked by
/// its rule and carried by everything that derives from the list. `replaces` is the first.
struct ExtraFactTests {
    private func send(replaces: String) throws -> TransactionFacts {
        try TransactionFacts(
            vaultId: "main",
            chain: Fixture.ethereum,
            timestamp: Fixture.start,
            txHash: Fixture.evmHash(1),
            extras: ["replaces": replaces],
            details: try Fixture.minimalSend(hash: 1).facts.details
        )
    }

    @Test func theExtraFactsAreTheFieldListsEntriesWithARule() {
        #expect(TransactionFacts.extraKeys == ["nonce", "replaces", "spends"])
        #expect(RecordField.extraFacts.map(\.name) == ["nonce", "replaces", "spends"])
        #expect(RecordField.nonce.isFact && RecordField.nonce.number == 56 && RecordField.nonce.encoding == .integer)
        #expect(RecordField.replaces.isFact && RecordField.replaces.number == 57)
        #expect(RecordField.spends.isFact && RecordField.spends.number == 64)
    }

    /// The nonce, a typed extra fact: kept as decimal text in `extras`, read as a number by
    /// `nonce`, written as an integer field in the frame and as a number in the JSON.
    @Test func theNonceIsATypedExtraFact() throws {
        let send = try TransactionFacts(
            vaultId: "vault-1",
            chain: Fixture.ethereum,
            timestamp: Fixture.start,
            txHash: Fixture.evmHash(1),
            nonce: 42,
            details: try Fixture.minimalSend(hash: 1).facts.details
        )
        #expect(send.nonce == 42 && send.extras == ["nonce": "42"])
        let record = try TransactionRecord(facts: send)
        let state = RecordState(recording: record, stamp: Stamp(millis: 1, replica: ReplicaID(rawValue: 1)))
        #expect(state.fields[.nonce] == .integer(42))
        #expect(try RecordState(fields: state.fields).record.nonce == 42)
        let json = String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
        #expect(json.contains(#""nonce":42"#), "\(json)")
        #expect(try JSONDecoder().decode(TransactionRecord.self, from: Data(json.utf8)) == record)
        #expect(
            throws: LedgerError.invalidInput(field: "nonce", reason: "is given twice (as nonce and as an extra fact)")
        ) {
            try TransactionFacts(
                vaultId: "vault-1",
                chain: Fixture.ethereum,
                timestamp: Fixture.start,
                txHash: Fixture.evmHash(1),
                nonce: 42,
                extras: ["nonce": "42"],
                details: try Fixture.minimalSend(hash: 1).facts.details
            )
        }
    }

    @Test func spendsAreABitcoinTransactionsOutpointsKeptSortedInLowerCase() throws {
        let a = String(repeating: "AB", count: 32)
        let b = String(repeating: "01", count: 32)
        let bitcoin = try Chain(parsing: "bitcoin")
        let rule = ExtraFactRule.outpoints
        #expect(
            try rule.validated("\(a):1,\(b):0,\(a.lowercased()):1", key: "spends", chain: bitcoin, kind: .send)
                == "\(b):0,\(a.lowercased()):1"
        )
        for bad in ["\(a)", "\(a):-1", "\(a):01", "xyz:0", "\(a):0,", "\(a.dropLast()):0"] {
            #expect(throws: LedgerError.self, "\(bad)") {
                try rule.validated(bad, key: "spends", chain: bitcoin, kind: .send)
            }
        }
        #expect(
            throws: LedgerError.invalidInput(field: "spends", reason: "only a bitcoin-like transaction spends outputs")
        ) {
            try rule.validated("\(a):0", key: "spends", chain: Fixture.ethereum, kind: .send)
        }
        let many = (0...ExtraFactRule.maxOutpoints).map { "\(a):\($0)" }.joined(separator: ",")
        #expect(throws: LedgerError.self) { try rule.validated(many, key: "spends", chain: bitcoin, kind: .send) }
    }

    @Test func replacesIsAHashOfTheChainKeptInItsCanonicalForm() throws {
        let facts = try send(replaces: Fixture.evmHash(2).dropFirst(2).uppercased())
        #expect(facts.extras == ["replaces": Fixture.evmHash(2)])
        let record = try TransactionRecord(facts: facts)
        let json = try JSONEncoder().encode(record)
        #expect(String(decoding: json, as: UTF8.self).contains("\"replaces\":\"\(Fixture.evmHash(2))\""))
        #expect(try JSONDecoder().decode(TransactionRecord.self, from: json) == record)
        let state = RecordState(
            recording: record,
            stamp: Stamp(millis: 1_751_371_200_000, replica: ReplicaID(rawValue: 1))
        )
        #expect(state.fields[.replaces] == .text(Fixture.evmHash(2)))
        #expect(try RecordState(fields: state.fields) == state)
    }

    @Test func anUnknownKeyOrABadValueIsRefusedByName() throws {
        #expect(
            throws: LedgerError.invalidInput(
                field: "replace",
                reason: "is not a fact this version knows (extra facts: nonce, replaces, spends)"
            )
        ) {
            try TransactionFacts(
                vaultId: "main",
                chain: Fixture.ethereum,
                timestamp: Fixture.start,
                txHash: Fixture.evmHash(1),
                extras: ["replace": Fixture.evmHash(2)],
                details: try Fixture.minimalSend(hash: 1).facts.details
            )
        }
        #expect(throws: LedgerError.self) { try send(replaces: "0x12") }
        do {
            _ = try send(replaces: "0x12")
        } catch let error as LedgerError where error.code == .invalidInput {
            #expect(error.field == "replaces")
        }
        #expect(throws: LedgerError.invalidInput(field: "replaces", reason: "only a send or a swap has it")) {
            let signature = try Fixture.signature()
            return try TransactionFacts(
                vaultId: "main",
                chain: signature.chain,
                timestamp: Fixture.start,
                txHash: nil,
                method: signature.method,
                extras: ["replaces": Fixture.evmHash(2)],
                details: signature.details
            )
        }
        // JSON input is checked the same way.
        var object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(try Fixture.send())) as! [String: Any]
        object["replaces"] = "not a hash"
        #expect(throws: LedgerError.self) {
            try JSONDecoder().decode(TransactionRecord.self, from: JSONSerialization.data(withJSONObject: object))
        }
    }
}
