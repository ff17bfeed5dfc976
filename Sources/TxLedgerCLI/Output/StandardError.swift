import Foundation

/// Lines for a person on stderr, each `txledger: warning: ...`, apart from what stdout prints
/// for scripts.
enum StandardError {
    static func warn(_ lines: [String]) {
        for line in lines { FileHandle.standardError.write(Data("txledger: warning: \(line)\n".utf8)) }
    }
}
