import Foundation

enum JSONOutput {
    /// Key-sorted JSON without escaped slashes: stable output for scripts and diffs; pretty
    /// printed, or on one line (JSON Lines) for output that streams.
    static func string<T: Encodable>(_ value: T, pretty: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
