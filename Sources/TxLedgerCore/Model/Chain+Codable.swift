/// A chain in JSON is its canonical id (`"ethereum"`, `"eip155:324"`); decoding accepts every
/// spelling `init(parsing:)` accepts (chains.md).
extension Chain: Codable {
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(id)
    }

    public init(from decoder: Decoder) throws {
        try self.init(parsing: try decoder.singleValueContainer().decode(String.self))
    }
}
