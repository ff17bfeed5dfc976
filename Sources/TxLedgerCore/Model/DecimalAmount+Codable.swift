/// An amount in JSON is its exact decimal string (`"0.25"`), never a JSON number: a number
/// would pass through `Double` in most JSON libraries.
extension DecimalAmount: Codable {
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(string)
    }

    public init(from decoder: Decoder) throws {
        try self.init(try decoder.singleValueContainer().decode(String.self))
    }
}
