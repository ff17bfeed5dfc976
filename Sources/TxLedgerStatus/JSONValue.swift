import Foundation

/// A JSON document as the status providers read and write it: small, `Sendable`, and strict
/// about types, so a response of the wrong shape is reported rather than guessed at.
public enum JSONValue: Hashable, Sendable, Codable {
    case null
    case bool(Bool)
    /// Numbers are kept as their decimal text, so no value is rounded through `Double`.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? container.decode(Int64.self) {
            self = .number(String(integer))
        } else if let decimal = try? container.decode(Decimal.self) {
            self = .number("\(decimal)")
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case let .bool(value): try container.encode(value)
        case let .number(text): try container.encode(Decimal(string: text) ?? 0)
        case let .string(value): try container.encode(value)
        case let .array(values): try container.encode(values)
        case let .object(members): try container.encode(members)
        }
    }

    /// Parses a response body.
    /// - Throws: `StatusCheckError.malformedResponse` if it is not JSON.
    public static func parse(_ data: Data) throws -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw StatusCheckError.malformedResponse("the body is not JSON")
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case let .object(members) = self { return members[key] }
        return nil
    }

    public subscript(index: Int) -> JSONValue? {
        if case let .array(values) = self, values.indices.contains(index) { return values[index] }
        return nil
    }

    public var isNull: Bool { self == .null }

    public var string: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    public var bool: Bool? {
        if case let .bool(value) = self { return value }
        return nil
    }

    /// An integer written as a JSON number or as a decimal string (Cosmos writes `"code": 0`
    /// but `"height": "123"`).
    public var integer: Int64? {
        switch self {
        case let .number(text), let .string(text): Int64(text)
        default: nil
        }
    }

    /// A `0x`-prefixed hexadecimal quantity, as Ethereum JSON-RPC writes numbers.
    public var hexQuantity: UInt64? {
        guard let text = string, text.hasPrefix("0x"), text.count > 2 else { return nil }
        return UInt64(text.dropFirst(2), radix: 16)
    }

    /// Compact JSON text (for a failure reason that quotes what the chain said).
    public var compactText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
