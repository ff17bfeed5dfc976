/// A token: its ticker symbol, where it lives (contract address or denom; `nil` for a chain's
/// native coin) and its decimals when known.
public struct Token: Hashable, Sendable {
    public let symbol: String
    public let contract: String?
    public let decimals: Int?

    public init(symbol: String, contract: String? = nil, decimals: Int? = nil, field: String = "token") throws {
        self.symbol = try TextField.line(max: 64).validate(symbol, field: "\(field).symbol")
        self.contract = try TextField.identifier.validate(contract, field: "\(field).contract")
        if let decimals, !(0...255).contains(decimals) {
            throw LedgerError.invalidInput(field: "\(field).decimals", reason: "\(decimals) is outside 0...255")
        }
        self.decimals = decimals
    }
}
