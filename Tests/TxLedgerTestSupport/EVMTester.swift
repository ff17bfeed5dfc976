import Foundation

/// The interpreter of the virtual environment with eth-tester, and the script it runs.
enum EVMTester {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let python: String? = {
        let path = root.appendingPathComponent(".build/evm/bin/python").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()
    static let script = root.appendingPathComponent("Tests/Fixtures/evm/speed_up.py").path
}
