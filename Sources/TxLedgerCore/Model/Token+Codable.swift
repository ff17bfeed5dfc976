/// A token in JSON: `{"symbol": "USDC", "contract": "0x…", "decimals": 6}`, absent fields
/// omitted (Specs/schema.md, "JSON shape"). Decoding validates as `init(symbol:contract:decimals:)`.
extension Token: Codable {
    private enum CodingKeys: String, CodingKey { case symbol, contract, decimals }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(symbol, forKey: .symbol)
        try c.encodeIfPresent(contract, forKey: .contract)
        try c.encodeIfPresent(decimals, forKey: .decimals)
    }

    public init(from decoder: Decoder) throws {
        try self.init(from: decoder, field: "token")
    }

    /// Decodes a token that errors name `field`.
    init(from decoder: Decoder, field: String) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            symbol: try c.decode(String.self, forKey: .symbol),
            contract: try c.decodeIfPresent(String.self, forKey: .contract),
            decimals: try c.decodeIfPresent(Int.self, forKey: .decimals),
            field: field
        )
    }
}
