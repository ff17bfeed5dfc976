import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// The presentation texts apps would otherwise copy (issue #6).
struct HistoryTextTests {
    @Test func truncatesLongHashesAndAddressesOnly() {
        #expect(HistoryText.truncated("0x1234567890abcdef1234567890abcdef12345678") == "0x1234…5678")
        #expect(HistoryText.truncated("bc1qxyz") == "bc1qxyz")
        #expect(HistoryText.truncated("0x123456789") == "0x123456789")  // 11 = 6 + 4 + 1: nothing to save
        #expect(HistoryText.truncated("0x1234567890") == "0x1234…7890")
        #expect(HistoryText.truncated("ABCDEFGHIJKLMNOP", head: 2, tail: 2) == "AB…OP")
    }

    @Test func appLabelFallsBackFromDomainToUriToSchemeToUnknown() throws {
        #expect(
            HistoryText.appLabel(try AppMetadata(domain: "app.uniswap.org", uri: "https://x", scheme: "https"))
                == "app.uniswap.org"
        )
        #expect(HistoryText.appLabel(try AppMetadata(uri: "wc://pair", scheme: "wc")) == "wc://pair")
        #expect(HistoryText.appLabel(try AppMetadata(scheme: "metamask")) == "metamask")
        #expect(HistoryText.appLabel(nil) == "Unknown App")
    }

    @Test func explorerURLComesFromTheChain() throws {
        let send = try Fixture.minimalSend(hash: 7)
        #expect(HistoryText.explorerURL(send)?.absoluteString == "https://etherscan.io/tx/\(Fixture.evmHash(7))")
        let custom = try TransactionRecord(
            facts: try TransactionFacts(
                vaultId: "v",
                chain: try Chain(parsing: "custom:devnet"),
                timestamp: Fixture.start,
                txHash: "abc",
                details: .send(
                    try SendDetails(toAddress: "to", amount: try DecimalAmount("1"), token: try Token(symbol: "X"))
                )
            )
        )
        #expect(HistoryText.explorerURL(custom) == nil)
    }

    @Test func elapsedUsesTheTwoLargestUnits() {
        let start = Fixture.start
        let cases: [(TimeInterval, String)] = [
            (0, "0s"), (59.9, "59s"), (60, "1m 0s"), (134, "2m 14s"), (3599, "59m 59s"), (3600, "1h 0m"),
            (3600 + 5 * 60 + 59, "1h 5m"), (86_399, "23h 59m"), (86_400 * 3 + 3600 * 4 + 7, "3d 4h"), (-30, "0s"),
        ]
        for (seconds, text) in cases {
            #expect(HistoryText.elapsed(since: start, now: start.addingTimeInterval(seconds)) == text, "\(seconds)")
        }
        #expect(HistoryText.inProgress(since: start, now: start.addingTimeInterval(134)) == "In progress… 2m 14s")
    }

    @Test func wordsOfKindsAndStatuses() throws {
        #expect(TransactionKind.allCases.map(HistoryText.kind) == ["Send", "Swap", "Signature"])
        #expect(
            TransactionStatus.allCases.map(HistoryText.status) == ["Broadcasted", "Pending", "Successful", "Error"]
        )
        #expect(HistoryText.status(of: try Fixture.signature()) == "Signed")
        #expect(HistoryText.status(of: try Fixture.send()) == "Broadcasted")
        let rejected = try TransactionRecord(facts: try Fixture.signature().facts, status: .failed(reason: "rejected"))
        #expect(HistoryText.status(of: rejected) == "Error")
        #expect(HistoryTab.allCases.map(\.title) == ["Overview", "Swaps", "Sends", "Signatures"])
        #expect(
            try ["all", "Swap", "SENDS", "signature"].map(HistoryTab.init(parsing:)) == [
                .overview, .swaps, .sends, .signatures,
            ]
        )
        #expect(throws: LedgerError.self) { try HistoryTab(parsing: "receives") }
    }

    @Test func emptyStateSaysWhyTheListIsEmpty() {
        #expect(
            HistoryText.emptyState(HistoryFilter(vault: "main"))
                == "No transactions yet. Your sends and swaps will appear here."
        )
        #expect(HistoryText.emptyState(HistoryFilter(tab: .swaps)) == "No swaps yet.")
        #expect(
            HistoryText.emptyState(HistoryFilter(tab: .signatures, includeHidden: true)) == "No signature requests yet."
        )
        #expect(HistoryText.emptyState(HistoryFilter().inProgress) == "No transactions in progress.")
        #expect(HistoryText.emptyState(HistoryFilter().completed) == "No completed transactions yet.")
        #expect(HistoryText.emptyState(HistoryFilter(statuses: [.failed])) == "No transactions match these filters.")
        #expect(
            HistoryText.emptyState(HistoryFilter(search: "0xabc").inProgress) == "No transactions match these filters."
        )
        #expect(
            HistoryText.emptyState(HistoryFilter(search: "   "))
                == "No transactions yet. Your sends and swaps will appear here."
        )
        #expect(HistoryText.emptyState(HistoryFilter(tokens: ["USDC"])) == "No transactions match these filters.")
    }
}
