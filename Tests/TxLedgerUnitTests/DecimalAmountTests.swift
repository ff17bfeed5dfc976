import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

struct DecimalAmountTests {
    @Test(arguments: [
        "0", "12", "12.50", "0.000000000000000001", "1234567890.123456789012345678",
        String(repeating: "9", count: 78),
    ])
    func acceptsPlainDecimalsVerbatim(_ text: String) throws {
        #expect(try DecimalAmount(text).string == text)
    }

    @Test(arguments: [
        "", "-1", "+1", "1e5", ".5", "5.", "1,000", "1.000.0", " 1", "1 ", "NaN", "0x10", "１",
        String(repeating: "1", count: 101),
    ])
    func rejectsEverythingElse(_ text: String) {
        #expect(throws: LedgerError.self) { try DecimalAmount(text) }
    }

    @Test func errorNamesTheField() {
        #expect(
            throws: LedgerError.invalidInput(
                field: "fee",
                reason: "'1e5' is not a decimal amount (digits with an optional fraction, e.g. 12.5)"
            )
        ) {
            try DecimalAmount("1e5", field: "fee")
        }
    }

    @Test(arguments: [
        ("1500000", 6, "1.500000"), ("5", 3, "0.005"), ("0", 0, "0"),
        ("1000000000000000000", 18, "1.000000000000000000"),
        ("123", 0, "123"),
    ])
    func convertsFromBaseUnits(_ base: String, _ decimals: Int, _ expected: String) throws {
        let amount = try DecimalAmount(baseUnits: base, decimals: decimals)
        #expect(amount.string == expected)
        #expect(amount.baseUnits(decimals: decimals) == String(base.drop(while: { $0 == "0" })).ifEmpty("0"))
    }

    @Test func baseUnitsRefusesFractionsFinerThanTheToken() throws {
        #expect(try DecimalAmount("1.5").baseUnits(decimals: 6) == "1500000")
        #expect(try DecimalAmount("0.0000001").baseUnits(decimals: 6) == nil)
        #expect(throws: LedgerError.self) { try DecimalAmount(baseUnits: "1.5", decimals: 6) }
        #expect(throws: LedgerError.self) { try DecimalAmount(baseUnits: "15", decimals: 256) }
    }

    @Test(arguments: [
        ("0.250000000000000000", "0.25"), ("12.50", "12.5"), ("3.000", "3"), ("100", "100"), ("0", "0"),
        ("0.0", "0"), ("10.01", "10.01"), ("0.000000000000000001", "0.000000000000000001"),
    ])
    func displayDropsTrailingZerosOfTheFractionOnly(stored: String, shown: String) throws {
        let amount = try DecimalAmount(stored)
        #expect(amount.displayString == shown)
        #expect(amount.string == stored)
    }

    @Test func decimalsBecomePlainDigitsExactly() throws {
        for text in ["0.25", "0.000000000000000000000000000001", "123456789012345678901234567890.5", "0", "7"] {
            #expect(try DecimalAmount(try #require(Decimal(string: text))).string == text)
        }
        #expect(try DecimalAmount(try #require(Decimal(string: "1e-3"))).string == "0.001")
        #expect(throws: LedgerError.invalidInput(field: "fee", reason: "must be a number of at least 0")) {
            try DecimalAmount(Decimal(-1), field: "fee")
        }
        #expect(throws: LedgerError.self) { try DecimalAmount(Decimal.nan) }
    }
}

extension String {
    fileprivate func ifEmpty(_ other: String) -> String { isEmpty ? other : self }
}
