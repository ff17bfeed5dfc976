import Foundation
import Testing

/// What the tests of `txledger sync` start from: a temporary directory holding a sync key
/// (`vault.key`, made by `txledger keygen`) and an empty shared folder (`Shared`).
enum SyncFolderFixture {
    static func make() async throws -> (directory: TemporaryDirectory, key: String, folder: String) {
        let directory = try TemporaryDirectory()
        let key = directory.path("vault.key")
        let folder = directory.path("Shared")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try await CLI(db: directory.path("keygen.sqlite")).run(["keygen", "--out", key])
        return (directory, key, folder)
    }
}
