import Foundation
import Testing

/// Devices that sync one vault through a shared folder with the CLI: a temporary directory
/// with a sync key and the folder (`SyncFolderFixture`), a ledger per device name, and a sync
/// that must succeed.
struct FolderDevices {
    let directory: TemporaryDirectory
    let key: String
    let folder: String

    init() async throws {
        (directory, key, folder) = try await SyncFolderFixture.make()
    }

    func device(_ name: String) -> CLI { CLI(db: directory.path("\(name).sqlite")) }

    @discardableResult
    func sync(_ cli: CLI, _ extra: [String] = []) async throws -> CLI.Result {
        let result = try await cli.run(["sync", folder, "--key-file", key] + extra)
        try #require(result.status == 0, "\(cli.db): \(result.stderr)")
        return result
    }
}
