import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerFolderSync
@testable import TxLedgerTestSupport

/// `txledger sync DIR` as people and scripts run it (Specs/folder-sync.md, Specs/cli.md).
struct CLIFolderSyncTests {
    let devices: FolderDevices
    var directory: TemporaryDirectory { devices.directory }
    var key: String { devices.key }
    var folder: String { devices.folder }

    init() async throws {
        devices = try await FolderDevices()
    }

    func device(_ name: String) -> CLI { devices.device(name) }

    @discardableResult
    func sync(_ cli: CLI, _ extra: [String] = []) async throws -> CLI.Result {
        try await devices.sync(cli, extra)
    }

    func record(_ cli: CLI, _ hashes: ClosedRange<Int>) async throws {
        let records: [[String: Any]] = hashes.map { n in
            [
                "vaultId": "main", "kind": "send", "chain": "ethereum", "txHash": Fixture.evmHash(n),
                "toAddress": Fixture.evmAddress(2),
                "amount": "1", "token": ["symbol": "ETH"], "timestamp": "2026-01-01T00:00:00Z",
            ]
        }
        let result = try await cli.run(
            ["record", "--json", "-"],
            stdin: try JSONSerialization.data(withJSONObject: records)
        )
        try #require(result.status == 0, "\(result.stderr)")
    }

    func count(_ cli: CLI) async throws -> Int {
        let listed = try await cli.run(["list", "--json", "--limit", "10000"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        return (object["items"] as? [[String: Any]])?.count ?? 0
    }

    @Test func syncPrintsWhatItDidAndWarnsOfWhatItSkipped() async throws {
        let a = device("a")
        let b = device("b")
        try await record(a, 1...3)
        let first = try await sync(a)
        #expect(first.stdout == "main: read 0 files (added 0, changed 0), wrote 1, removed 0\n")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first)
        try FileManager.default.copyItem(
            atPath: folder + "/" + name,
            toPath: folder + "/" + name.dropLast(4) + " (1).txb"
        )
        let second = try await sync(b, ["--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
        let main = try #require((report["vaults"] as? [String: Any])?["main"] as? [String: Any])
        #expect(
            main["filesRead"] as? Int == 1 && main["recordsAdded"] as? Int == 3 && main["filesWritten"] as? Int == 0
        )
        #expect((report["skipped"] as? [[String: Any]])?.count == 1)
        #expect(
            second.stderr.contains("txledger: warning: skipped \(name.dropLast(4)) (1).txb: a copy"),
            "\(second.stderr)"
        )
        #expect(try await count(b) == 3)

        let missing = try await a.run(["sync", directory.path("nowhere"), "--key-file", key])
        #expect(missing.status == 74 && missing.stderr.contains("folder"), "\(missing.stderr)")
        let noSecret = try await a.run(["sync", folder])
        #expect(noSecret.status == 64, "\(noSecret.stderr)")
    }

    /// Four devices, each running only `txledger sync`, two at a time, in a folder with the
    /// hazards of cloud drives: one is lost midway, one restored from an older backup, one
    /// joins late. Every device still in use ends with everything any of them recorded (but
    /// what the lost one never synced), and the folder stays bounded.
    @Test func fourDevicesConvergeThroughTheFolderWhateverHappens() async throws {
        let a = device("a")
        let b = device("b")
        let c = device("c")
        let late = device("late")
        func together(_ x: CLI, _ y: CLI) async throws {
            async let first = sync(x)
            async let second = sync(y)
            _ = try await (first, second)
        }
        try await record(a, 1...5)
        try await record(b, 6...10)
        try await record(c, 11...15)
        try await together(a, b)
        try await together(c, a)
        // Hazards: a conflict copy, a cut upload, an empty file, an iCloud placeholder, junk,
        // another key's file.
        let some = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".txb") }.first
        )
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + some))
        try bytes.write(to: URL(fileURLWithPath: folder + "/" + some.dropLast(4) + " (Bob's conflicted copy).txb"))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: folder + "/txl-00112233445566778899aabb.txb"))
        try Data().write(to: URL(fileURLWithPath: folder + "/txl-ffeeddccbbaa998877665544.txb"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/.txl-0123456789abcdef01234567.txb.icloud"))
        try Data("junk".utf8).write(to: URL(fileURLWithPath: folder + "/txl-abcdefabcdefabcdefabcdef.txb"))
        let otherKey = directory.path("other.key")
        try await device("stranger").run(["keygen", "--out", otherKey])
        try await record(device("stranger"), 90...91)
        try #require(try await device("stranger").run(["sync", folder, "--key-file", otherKey]).status == 0)

        // B keeps a backup; C is lost after one more record it never syncs.
        try FileManager.default.copyItem(atPath: b.db, toPath: directory.path("b-backup.sqlite"))
        try await record(b, 16...18)
        try await together(b, a)
        try await record(c, 19...19)
        // B's file is restored from the backup, and B goes on.
        try FileManager.default.removeItem(atPath: b.db)
        try FileManager.default.copyItem(atPath: directory.path("b-backup.sqlite"), toPath: b.db)
        try await record(b, 20...22)
        try await record(late, 23...24)
        try await together(b, late)
        try await together(a, b)
        try await together(late, a)
        for cli in [b, late, a, b, late] { try await sync(cli) }

        let expected = 24 - 1  // all but C's unsynced record 19
        for cli in [a, b, late] {
            #expect(try await count(cli) == expected, "\(cli.db)")
        }
        let reference = try await a.history()
        #expect(try await b.history() == reference)
        #expect(try await late.history() == reference)

        // Bounded: the bundles of our key weigh at most 1.5 full exports per device that wrote.
        let full = directory.path("full.txb")
        try #require(
            try await a.run(["export", "--vault", "main", "--out", full, "--key-file", key, "--full"]).status == 0
        )
        let fullSize = try #require(try FileManager.default.attributesOfItem(atPath: full)[.size] as? Int)
        let ours = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
            FolderFileName.kind(of: $0) == .bundle
        }
        .filter {
            (try? BundleInfo(
                contentsOf: folder + "/" + $0,
                secret: .syncKey(SyncKey(printable: String(contentsOfFile: key, encoding: .utf8)))
            )) != nil
        }
        let sizes = try ours.map {
            try #require(try FileManager.default.attributesOfItem(atPath: folder + "/" + $0)[.size] as? Int)
        }
        // Writers: A, B (its restored id), C (lost), late; B's former id's files are gone.
        #expect(sizes.reduce(0, +) <= 4 * fullSize * 3 / 2, "\(sizes) against a full export of \(fullSize)")
    }

    @Test func watchKeepsSyncingUntilInterrupted() async throws {
        let a = device("a")
        let b = device("b")
        try await record(b, 1...1)
        try await sync(b)
        let watching = Task { try await b.run(["sync", folder, "--key-file", key, "--watch", "--interval", "1"]) }
        defer { watching.cancel() }
        try await record(a, 2...4)
        try await sync(a)
        // B's watch reads A's file by itself; nothing else syncs B.
        let start = Date()
        while try await count(b) < 4 {
            try #require(Date().timeIntervalSince(start) < TestLimits.hang, "the watching sync never read the new file")
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        #expect(try await count(b) == 4)
    }

    /// A folder this device may not write to is still read, and the sync says so.
    @Test func aReadOnlyFolderIsReadAndTheSyncSaysItCouldNotWrite() async throws {
        // A full file and a delta after it: a new device adopts the first and writes the
        // second's change after it (folder-sync.md, "Adopting another device's full file").
        let a = device("a")
        try await record(a, 1...20)
        try await sync(a)
        try await record(a, 21...21)
        try await sync(a)
        let home = directory.path("nobody")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let keyCopy = home + "/vault.key"
        try FileManager.default.copyItem(atPath: key, toPath: keyCopy)
        let arguments = ["--db", home + "/b.sqlite", "sync", folder, "--key-file", keyCopy]
        let result: ChildProcess.Result
        if geteuid() == 0 {
            // Root writes anywhere: run as nobody, who may write its own folder only.
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: home)
            try FileManager.default.setAttributes(
                [.ownerAccountID: 65534, .posixPermissions: 0o600],
                ofItemAtPath: keyCopy
            )
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
            result = try await ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                ["--reuid=65534", "--regid=65534", "--clear-groups", CLI.binary.path] + arguments
            )
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
            result = try await ChildProcess.run(CLI.binary, arguments)
        }
        let stderr = String(decoding: result.stderr, as: UTF8.self)
        #expect(result.status == 0, "\(stderr)")
        #expect(stderr.contains("could not write to"), "\(stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("read 2 files (added 21"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
    }

    /// A device whose files nobody can read is told so (Specs/crdt.md, "Peers that do not
    /// read"): here every file the laptop writes is damaged in the folder, as a cloud service
    /// that mangles uploads would. The phone keeps syncing and refuses them; within two syncs
    /// the laptop's sync says so on stderr, and `peers` shows it. Once its files are read
    /// again, the warning goes.
    @Test func aDeviceWhoseFilesNobodyReadsIsToldWithinTwoSyncs() async throws {
        let (laptop, phone) = (device("laptop"), device("phone"))
        try await record(laptop, 1...1)
        try await sync(laptop)
        // The phone has a record of its own, so it writes a file the laptop hears it from
        // (a device that adopted the laptop's full file and changed nothing writes none).
        try await record(phone, 9...9)
        try await sync(phone)
        #expect(try await sync(laptop).stderr.isEmpty)

        func damagedSync(_ cli: CLI) async throws -> CLI.Result {
            let before = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
            let result = try await sync(cli)
            for name in Set(try FileManager.default.contentsOfDirectory(atPath: folder)).subtracting(before) {
                let path = folder + "/" + name
                var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                bytes[bytes.count - 20] ^= 0x55
                try bytes.write(to: URL(fileURLWithPath: path))
            }
            return result
        }
        try await record(laptop, 2...2)
        _ = try await damagedSync(laptop)
        try await record(phone, 10...10)
        #expect(try await sync(phone).stderr.contains("skipped"), "the phone refuses the damaged file")
        let first = try await damagedSync(laptop).stderr
        #expect(!first.contains("has not taken"), "one file of the phone may predate ours: \(first)")
        try await record(phone, 11...11)
        #expect(try await sync(phone).stderr.contains("skipped"))
        // The second: it is told, and writes its whole history again (this time not damaged).
        let second = try await sync(laptop).stderr
        #expect(second.contains("keeps syncing vault main but has not taken this device's files since"), "\(second)")
        let peers = try await laptop.run(["peers", "--vault", "main"])
        #expect(peers.stdout.contains("not reading our files since"), "\(peers.stdout)")

        // The phone reads that file, says so in its next one, and the warning goes.
        try await sync(phone)
        #expect(try await count(phone) == 5)
        try await record(phone, 12...12)
        try await sync(phone)
        let healed = try await sync(laptop)
        #expect(!healed.stderr.contains("has not taken"), "\(healed.stderr)")
        #expect(!(try await laptop.run(["peers", "--vault", "main"])).stdout.contains("not reading"))
    }
}
