import Foundation

enum JSONOutput {
    /// Pretty, key-sorted JSON without escaped slashes: stable output for scripts and diffs.
    static func string<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
