import Foundation
import Testing

@testable import TxLedgerTestSupport

/// `txledger clear`, `cleared` and `restore` through a sync folder (Specs/crdt.md, "Clearing a
/// vault"; Specs/cli.md): a clear from another device is named where it lands, and a restore
/// brings every record back on every device.
struct CLIClearTests {
    let devices: FolderDevices

    init() async throws {
        devices = try await FolderDevices()
    }

    func device(_ name: String) -> CLI { devices.device(name) }

    @discardableResult
    func sync(_ cli: CLI, _ extra: [String] = []) async throws -> CLI.Result {
        try await devices.sync(cli, extra)
    }

    func hashes(_ cli: CLI) async throws -> Set<String> {
        let listed = try await cli.run(["list", "--json", "--limit", "10000"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        return Set((object["items"] as? [[String: Any]] ?? []).compactMap { $0["txHash"] as? String })
    }

    @Test func aClearFromAnotherDeviceIsNamedAndARestoreBringsEverythingBackEverywhere() async throws {
        let (phone, laptop) = (device("phone"), device("laptop"))
        for n in 1...3 { try await phone.run(CLI.send(n)) }
        try await sync(phone)
        try await sync(laptop)
        let everything = Set((1...3).map { Fixture.evmHash($0) })
        #expect(try await hashes(laptop) == everything)

        let cleared = try await phone.run(["clear", "--vault", "main"])
        #expect(cleared.stdout == "cleared 3 records of vault main\n", "\(cleared.stdout)")
        try await sync(phone)
        let landed = try await sync(laptop)
        let phoneReplica = try #require(
            try await phone.run(["init"]).stdout.split(separator: "\n").first { $0.hasPrefix("replica ") }?
                .dropFirst("replica ".count)
        )
        #expect(
            landed.stdout.contains("cleared 3 records of vault main, by replica \(phoneReplica), at 20"),
            "\(landed.stdout)"
        )
        #expect(landed.stdout.contains("txledger restore --all --vault main brings them back"))
        #expect(try await hashes(laptop).isEmpty)
        let json = try await sync(laptop, ["--json"])
        #expect(!json.stdout.contains("\"records\" : 3"), "reported once, by the sync that brought it")

        // The laptop lists them, and restores them for everyone.
        let listed = try await laptop.run(["cleared", "--vault", "main", "--json"])
        let items = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(items.count == 3)
        #expect(items.allSatisfy { $0["clearedBy"] as? String == String(phoneReplica) && $0["restorableUntil"] != nil })
        let restored = try await laptop.run(["restore", "--all", "--vault", "main"])
        #expect(restored.stdout == "restored 3 records of vault main\n", "\(restored.stderr)")
        try await sync(laptop)
        try await sync(phone)
        for cli in [phone, laptop] {
            #expect(try await hashes(cli) == everything)
            #expect(try await cli.run(["cleared", "--vault", "main"]).stdout == "no cleared records\n")
        }
    }

    @Test func restoreRefusesWhatIsNotClearedAndNamesIt() async throws {
        let phone = device("phone")
        try await phone.run(CLI.send(1))
        let listed = try await phone.run(["list", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let id = try #require((object["items"] as? [[String: Any]])?.first?["id"] as? String)
        let notCleared = try await phone.run(["restore", id, "--vault", "main"])
        #expect(notCleared.status != 0 && notCleared.stderr.contains(id), "\(notCleared.stderr)")
        let both = try await phone.run(["restore", id, "--all", "--vault", "main"])
        #expect(both.status == 64)
        let bad = try await phone.run(["restore", "nonsense\u{1B}[2J", "--vault", "main"])
        #expect(bad.status == 64 && !bad.stderr.contains("\u{1B}"))
    }
}
