import Testing

@testable import TxLedgerCore

/// A swap provider's name: a well-known one in any case is stored in its usual spelling, as
/// given in it (the way every stored and received name comes) or not; another name is kept
/// as given, within a line's limits.
struct SwapProviderTests {
    @Test(arguments: SwapProvider.wellKnown)
    func aWellKnownNameInAnyCaseIsItsUsualSpelling(_ known: SwapProvider) throws {
        for given in [known.name, known.name.lowercased(), known.name.uppercased()] {
            #expect(try SwapProvider(given) == known, "\(given)")
            #expect(try SwapProvider(given).name == known.name)
        }
    }

    @Test func anotherNameIsKeptAsGiven() throws {
        #expect(try SwapProvider("Jupiter").name == "Jupiter")
        #expect(try SwapProvider("thorchain2").name == "thorchain2")
    }

    @Test(arguments: ["", "a\nb", String(repeating: "x", count: 65)])
    func aNameOutsideALinesLimitsIsRefused(_ given: String) {
        #expect(throws: LedgerError.self) { try SwapProvider(given) }
    }
}
