import Foundation

/// A python3 interpreter, when the machine has one: tests use its standard library as an
/// independent implementation (its csv module reads our CSV back).
enum Python {
    static let path: String? = ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}
