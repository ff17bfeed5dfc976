import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Values an app keeps or passes around (a screen's filter, a page, amounts, chains, tokens)
/// round-trip through JSON exactly: amounts as decimal strings, instants as integer
/// milliseconds, chains by canonical id; decoding validates as the initializers do.
struct AppValueCodingTests {
    private func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        try JSONDecoder().decode(T.self, from: try JSONEncoder().encode(value))
    }

    @Test func amountsChainsAndTokensAreTheirTexts() throws {
        let amount = try DecimalAmount("1234567890.123456789012345678")
        #expect(try json([amount]) == #"["1234567890.123456789012345678"]"#)
        #expect(try roundTrip(amount) == amount)
        #expect(throws: LedgerError.self) {
            try JSONDecoder().decode([DecimalAmount].self, from: Data(#"["1e5"]"#.utf8))
        }

        let zksync = try Chain(parsing: "0x144")
        #expect(try json([zksync]) == #"["zksync"]"#)
        #expect(
            try JSONDecoder().decode([Chain].self, from: Data(#"["ETH", "eip155:324"]"#.utf8)) == [
                try Chain(parsing: "ethereum"), zksync,
            ]
        )

        let token = try Token(symbol: "USDC", contract: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", decimals: 6)
        #expect(try roundTrip(token) == token)
        #expect(throws: LedgerError.self) {
            try JSONDecoder().decode(Token.self, from: Data(#"{"symbol":"X","decimals":300}"#.utf8))
        }
    }

    @Test func aFilterKeepsEveryFieldWithInstantsInMilliseconds() throws {
        var filter = HistoryFilter(
            vault: "main",
            tab: .swaps,
            chains: [try Chain(parsing: "base")],
            tokens: ["usdc"],
            since: Date(millis: 1_751_371_200_123),
            until: Date(millis: 1_751_371_300_001),
            statuses: [.pending, .failed],
            providers: ["thorchain"],
            includeHidden: true,
            search: "0x88df"
        )
        filter = filter.inProgress
        let text = try json(filter)
        #expect(text.contains(#""since":1751371200123"#) && text.contains(#""until":1751371300001"#))
        #expect(try roundTrip(filter) == filter)
        #expect(try JSONDecoder().decode(HistoryFilter.self, from: Data("{}".utf8)) == HistoryFilter())
    }

    @Test func aPageAndItsCursorRoundTrip() async throws {
        let test = try await TestLedger()
        try await test.ledger.record(
            try (1...3).map { try Fixture.send(hash: $0, at: Fixture.start.addingTimeInterval(Double($0))) }
        )
        let page = try await test.ledger.list(HistoryFilter(vault: "vault-1"), limit: 2)
        let decoded = try roundTrip(page)
        #expect(decoded == page)
        let next = try await test.ledger.list(HistoryFilter(vault: "vault-1"), limit: 2, after: decoded.nextCursor)
        #expect(next.items.map(\.id) == [try Fixture.send(hash: 1).id])
    }
}
