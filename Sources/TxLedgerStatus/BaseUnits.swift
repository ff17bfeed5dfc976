import TxLedgerCore

/// A non-negative integer amount of a chain's smallest unit up to 2^128 − 1 (a fee in wei is
/// the product of two 64-bit quantities), kept as two 64-bit halves: exact, never a `Double`.
struct BaseUnits: Hashable, Sendable {
    private var high: UInt64
    private var low: UInt64
    /// Set when a sum went past 2^128 − 1.
    private var overflowed = false

    init(_ value: UInt64) {
        (high, low) = (0, value)
    }

    /// `a × b`, exactly.
    init(_ a: UInt64, times b: UInt64) {
        (high, low) = a.multipliedFullWidth(by: b)
    }

    func adding(_ value: UInt64) -> BaseUnits {
        var sum = self
        let (low, carry) = self.low.addingReportingOverflow(value)
        sum.low = low
        if carry {
            let (high, overflow) = self.high.addingReportingOverflow(1)
            sum.high = high
            sum.overflowed = sum.overflowed || overflow
        }
        return sum
    }

    /// The amount in decimal digits, without leading zeros; `nil` if a sum overflowed.
    var decimalDigits: String? {
        guard !overflowed else { return nil }
        // Nineteen digits at a time: 10^19 is the largest power of ten below 2^64.
        let chunk: UInt64 = 10_000_000_000_000_000_000
        var (high, low) = (self.high, self.low)
        var chunks: [UInt64] = []
        while high > 0 {
            let (highQuotient, highRemainder) = high.quotientAndRemainder(dividingBy: chunk)
            let (lowQuotient, remainder) = chunk.dividingFullWidth((highRemainder, low))
            chunks.append(remainder)
            (high, low) = (highQuotient, lowQuotient)
        }
        return String(low)
            + chunks.reversed().map { String(repeating: "0", count: 19 - String($0).count) + String($0) }.joined()
    }

    /// The amount in whole units of a coin with `decimals` decimals, without the fraction's
    /// trailing zeros (`0.00002488`, not `0.000024880000000000`).
    /// - Throws: `StatusCheckError.malformedResponse` if a sum overflowed.
    func amount(decimals: Int) throws -> DecimalAmount {
        guard let digits = decimalDigits else {
            throw StatusCheckError.malformedResponse("an amount above 2^128 base units")
        }
        return try DecimalAmount(try DecimalAmount(baseUnits: digits, decimals: decimals).displayString)
    }
}
