import Foundation
import Testing

@testable import TxLedgerTestSupport

/// Device keys through the command line only (issue #34, "Done when"; Specs/devices.md): three
/// devices of an upgraded vault sync through one folder, each with its own key; the phone is
/// lost and removed in one command on the laptop; the remaining devices need nothing typed or
/// copied.
struct CLIDeviceKeysTests {
    let directory: TemporaryDirectory
    let key: String
    let folder: String
    let laptop: CLI, tablet: CLI, phone: CLI

    init() async throws {
        directory = try TemporaryDirectory()
        key = directory.path("vault.key")
        folder = directory.path("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        laptop = CLI(db: directory.path("laptop.sqlite"))
        tablet = CLI(db: directory.path("tablet.sqlite"))
        phone = CLI(db: directory.path("phone.sqlite"))
        try #require(try await laptop.run(["keygen", "--out", key]).status == 0)
    }

    /// Runs `arguments` on `cli`, requiring success.
    @discardableResult
    func ok(
        _ cli: CLI,
        _ arguments: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws
        -> CLI.Result
    {
        let result = try await cli.run(arguments)
        try #require(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    func sync(_ cli: CLI, withKey: Bool = false) async throws -> CLI.Result {
        try await ok(cli, ["sync", folder] + (withKey ? ["--key-file", key] : []))
    }

    func devices(_ cli: CLI) async throws -> [String: Any] {
        let listed = try await ok(cli, ["devices", "list", "--vault", "main", "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
    }

    func fingerprints(_ devices: [String: Any], _ list: String) -> Set<String> {
        Set((devices[list] as? [[String: Any]] ?? []).compactMap { $0["fingerprint"] as? String })
    }

    func thisDevice(_ cli: CLI) async throws -> String {
        let members = try await devices(cli)["members"] as? [[String: Any]] ?? []
        return try #require(members.first { $0["thisDevice"] as? Bool == true }?["fingerprint"] as? String)
    }

    /// Every record as `list --json` prints it, by hash: status and whether it is there.
    func statuses(_ cli: CLI) async throws -> [String: String] {
        let listed = try await ok(cli, ["list", "--json", "--limit", "1000"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        return Dictionary(
            uniqueKeysWithValues: (object["items"] as? [[String: Any]] ?? []).compactMap { item in
                (item["txHash"] as? String).map { ($0, item["status"] as? String ?? "") }
            }
        )
    }

    /// The three devices record, sync with the shared key, and the laptop upgrades the vault;
    /// the others join at their next sync, each with its own key.
    func upgradedVault() async throws {
        try await ok(laptop, CLI.send(1))
        try await ok(tablet, CLI.send(2))
        try await ok(phone, CLI.send(3))
        for device in [laptop, tablet, phone, laptop, tablet] { _ = try await sync(device, withKey: true) }
        try await ok(laptop, ["devices", "init", "--vault", "main", "--name", "Laptop", "--key-file", key])
        for device in [laptop, tablet, phone, laptop, tablet, phone] { _ = try await sync(device, withKey: true) }
        for device in [laptop, tablet, phone] {
            #expect(fingerprints(try await devices(device), "members").count == 3)
            #expect(try await statuses(device).count == 3)
        }
    }

    @Test func aLostPhoneIsRemovedInOneCommandAndItsLaterWritesChangeNothing() async throws {
        try await upgradedVault()
        let lost = try await thisDevice(phone)
        let recovery = directory.path("new-recovery.key")
        let removed = try await ok(laptop, ["devices", "remove", lost, "--vault", "main", "--recovery-out", recovery])
        #expect(removed.stdout.contains("recovery secret was replaced"))
        #expect(FileManager.default.fileExists(atPath: recovery))
        // A copy of the phone as it is now, which never hears of its removal.
        let copy = CLI(db: directory.path("phone-copy.sqlite"))
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: phone.db + suffix) {
            try FileManager.default.copyItem(atPath: phone.db + suffix, toPath: copy.db + suffix)
        }
        // One sync of each remaining device, with nothing typed or copied (no key given).
        _ = try await sync(laptop)
        _ = try await sync(tablet)
        for device in [laptop, tablet] {
            #expect(fingerprints(try await devices(device), "removed") == [lost])
        }

        // The phone, holding everything it had and the old key, reads none of the new files.
        // Its sync says it was removed (the laptop's membership notice), and reads nothing new.
        let phoneSync = try await sync(phone, withKey: true)
        #expect(phoneSync.stderr.contains("this device is not among them"), "\(phoneSync.stderr)")
        #expect(phoneSync.stderr.contains("this device was removed from vault main"), "\(phoneSync.stderr)")
        #expect(!phoneSync.stdout.contains("read 1"), "\(phoneSync.stdout)")

        // Its later writes (a forged failure, a new record, a clear) by its own files in the
        // folder, by its bundle imported by hand, and by its ledger file merged.
        let hash1 = Fixture.evmHash(1)
        try await ok(phone, ["status", hash1, "failed", "--reason", "rejected by network: send again"])
        try await ok(phone, CLI.send(9))
        try await ok(phone, ["sync", folder, "--key-file", key])
        try await ok(phone, ["clear", "--vault", "main"])
        try await ok(phone, ["sync", folder, "--key-file", key])
        let bundle = directory.path("phone.txb")
        try await ok(phone, CLI.send(8))
        try await ok(phone, ["export", "--vault", "main", "--full", "--out", bundle, "--key-file", key])

        let before = try await statuses(laptop)
        #expect(before.count == 3 && before[hash1] == "broadcasted")
        for device in [laptop, tablet] {
            let synced = try await sync(device)
            #expect(synced.stderr.contains("was removed from vault 'main'"), "\(synced.stderr)")
            #expect(try await statuses(device) == before)
        }
        let imported = try await tablet.run(["import", bundle])
        #expect(imported.status == 76, "not_a_member: \(imported.stderr)")
        try await ok(laptop, ["merge", phone.db])
        for device in [laptop, tablet] {
            #expect(try await statuses(device) == before, "nothing of the phone's counts")
            let setAside = try await devices(device)["setAside"] as? [[String: Any]] ?? []
            #expect(!setAside.isEmpty, "the phone's writes are listed as set aside")
            #expect(setAside.allSatisfy { $0["device"] as? String == lost })
        }

        // It cannot approve itself back with the old secret, even under a new key: the phone
        // knows the secret was replaced; a copy that never heard of it signs an add that no
        // member counts.
        try FileManager.default.removeItem(atPath: phone.db + ".device")
        let again = try await phone.run(["devices", "init", "--vault", "main", "--name", "Again", "--key-file", key])
        #expect(again.status == 65 && again.stderr.contains("not the recovery secret"), "\(again.stderr)")
        try await ok(copy, ["devices", "init", "--vault", "main", "--name", "Again", "--key-file", key])
        _ = try await sync(copy, withKey: true)
        for device in [laptop, tablet] {
            let synced = try await sync(device)
            #expect(synced.stderr.contains("is not a member of vault 'main'"), "\(synced.stderr)")
            #expect(fingerprints(try await devices(device), "members").count == 2)
            #expect(try await statuses(device) == before)
        }
    }

    @Test func aRelayedWriteOfTheRemovedPhoneIsSetAsideEverywhere() async throws {
        try await upgradedVault()
        let lost = try await thisDevice(phone)
        // The phone writes before the tablet learns of its removal; the tablet takes it in.
        let hash1 = Fixture.evmHash(1)
        try await ok(phone, ["status", hash1, "failed", "--reason", "rejected by network: send again"])
        let bundle = directory.path("phone.txb")
        try await ok(phone, ["export", "--vault", "main", "--full", "--out", bundle])
        try await ok(laptop, ["devices", "remove", lost, "--vault", "main", "--recovery-out", directory.path("r.key")])
        try await ok(tablet, ["import", bundle])
        #expect(try await statuses(tablet)[hash1] == "failed")
        // The tablet relays it to the laptop, which knows the phone's cut.
        let relayed = directory.path("tablet.txb")
        try await ok(tablet, ["export", "--vault", "main", "--full", "--out", relayed])
        try await ok(laptop, ["import", relayed])
        #expect(try await statuses(laptop)[hash1] == "broadcasted")
        // The tablet learns of the removal at its next sync and sets the write aside too.
        _ = try await sync(laptop)
        _ = try await sync(tablet)
        for device in [laptop, tablet] {
            #expect(try await statuses(device)[hash1] == "broadcasted")
            let setAside = try await devices(device)["setAside"] as? [[String: Any]] ?? []
            #expect(setAside.contains { $0["registers"] as? [String] == ["status"] })
        }
        // A member may restore it: then it is the laptop's own write, and reaches the tablet.
        try await ok(laptop, ["devices", "restore", "--all", "--vault", "main"])
        #expect(try await statuses(laptop)[hash1] == "failed")
        _ = try await sync(laptop)
        _ = try await sync(tablet)
        #expect(try await statuses(tablet)[hash1] == "failed")
    }

    @Test func aFourthDeviceJoinsByRequestAndApprovalAndGetsTheWholeHistory() async throws {
        try await upgradedVault()
        let desktop = CLI(db: directory.path("desktop.sqlite"))
        try await ok(desktop, ["init"])
        let requested = try await ok(desktop, ["devices", "request", "--vault", "main", "--folder", folder])
        let fingerprint = try #require(
            requested.stdout.split(separator: "\n").last?.split(separator: " ").dropFirst().first
                .map { String($0.dropLast()) }
        )
        // A FIFO named like a request hangs nothing: it is skipped.
        #expect(mkfifo(folder + "/txl-join-fifo.txr", 0o644) == 0)
        // A wrong fingerprint approves nothing.
        let wrong = try await laptop.run([
            "devices", "approve", "--vault", "main", "--folder", folder, "--fingerprint", "0000-0000-0000-0000",
        ])
        #expect(wrong.status != 0)
        try await ok(
            laptop,
            [
                "devices", "approve", "--vault", "main", "--folder", folder, "--fingerprint", fingerprint, "--name",
                "Desktop",
            ]
        )
        _ = try await sync(laptop)
        _ = try await sync(desktop)
        #expect(try await statuses(desktop).count == 3)
        #expect(try await thisDevice(desktop) == fingerprint)
        #expect(fingerprints(try await devices(desktop), "members").count == 4)
    }

    /// A full file that holds every record but not the whole membership log held here is not
    /// adopted in place of this device's own (Specs/folder-sync.md, "Adopting another device's
    /// full file"): the device writes its own, and its change of the log reaches the others.
    @Test func aFullFileWithoutALogChangeHeldHereIsNotAdopted() async throws {
        try await upgradedVault()
        let laptopID = try await thisDevice(laptop)
        try await ok(tablet, ["devices", "rename", laptopID, "Work laptop", "--vault", "main"])
        try await ok(laptop, ["devices", "rename", try await thisDevice(phone), "Old phone", "--vault", "main"])
        _ = try await sync(laptop)
        _ = try await sync(tablet)
        _ = try await sync(laptop)
        for device in [laptop, tablet] {
            let names = (try await devices(device)["members"] as? [[String: Any]] ?? []).compactMap {
                $0["name"] as? String
            }
            #expect(Set(names).isSuperset(of: ["Work laptop", "Old phone"]), "\(device.db): \(names)")
        }
    }

    @Test func twoDevicesRemovingEachOtherConvergeEverywhere() async throws {
        try await upgradedVault()
        let (laptopID, tabletID) = (try await thisDevice(laptop), try await thisDevice(tablet))
        try await ok(
            laptop,
            ["devices", "remove", tabletID, "--vault", "main", "--recovery-out", directory.path("a.key")]
        )
        try await ok(
            tablet,
            ["devices", "remove", laptopID, "--vault", "main", "--recovery-out", directory.path("b.key")]
        )
        for device in [laptop, tablet, phone, laptop, tablet, phone] { _ = try await sync(device) }
        let views = try await [laptop, tablet, phone].asyncMap { try await devices($0) }
        for view in views {
            #expect(fingerprints(view, "members") == fingerprints(views[2], "members"))
            #expect(fingerprints(view, "removed") == [laptopID, tabletID])
        }
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
