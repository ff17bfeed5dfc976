/// A cursor in JSON is its opaque `token`.
extension PageCursor: Codable {
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(token)
    }

    public init(from decoder: Decoder) throws {
        try self.init(token: try decoder.singleValueContainer().decode(String.self))
    }
}
