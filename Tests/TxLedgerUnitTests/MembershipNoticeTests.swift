import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerFolderSync
@testable import TxLedgerMembership
@testable import TxLedgerTestSupport

/// Membership notices in a sync folder (Specs/devices.md, "Membership notices"): a device that
/// is not a member learns what its log lacks from them, so each device keeps its notice in step
/// with its own log, whatever the folder did to the file.
struct MembershipNoticeTests {
    let directory: TemporaryDirectory
    let folder: String
    let laptop: Ledger
    let phone: Ledger

    init() async throws {
        directory = try TemporaryDirectory()
        folder = directory.path("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        laptop = try await Self.ledger(directory, "laptop")
        phone = try await Self.ledger(directory, "phone")
        let secret = BundleSecret.syncKey(.generate())
        try await laptop.record(try Fixture.send(vault: "main", hash: 1))
        _ = try await laptop.sync(folder: folder, secret: secret)
        try await laptop.initDevices(vault: "main", secret: secret, name: "laptop")
        try await laptop.approve(try await phone.joinRequest(vault: "main"))
        _ = try await laptop.sync(folder: folder)
        _ = try await phone.sync(folder: folder)
    }

    static func ledger(_ directory: TemporaryDirectory, _ name: String) async throws -> Ledger {
        try await Ledger.open(
            path: directory.path("\(name).sqlite"),
            options: .init(
                logger: .quiet,
                deviceKeys: FileDeviceKeyStore(path: directory.path("\(name).device")),
                deviceName: name
            )
        )
    }

    func operations(_ ledger: Ledger) async throws -> Set<OperationID> {
        try await ledger.read { Set(try $0.membershipLog("main")?.operations.keys ?? [:].keys) }
    }

    /// The laptop removes the phone, then renames itself; the folder puts back the laptop's
    /// notice as it was before the rename (a sync service restoring an older version). The
    /// laptop's next sync writes it again, and the phone learns the whole log from it.
    @Test func aNoticeIsWrittenAgainWhenTheFolderHoldsAnOlderOne() async throws {
        let phoneID = try await phone.deviceIdentity().deviceID
        _ = try await laptop.removeDevice(phoneID, vault: "main")
        _ = try await laptop.sync(folder: folder)
        let notices = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".txm") }
        let notice = folder + "/" + (try #require(notices.first))
        #expect(notices.count == 1)
        let older = try Data(contentsOf: URL(fileURLWithPath: notice))

        let laptopID = try await laptop.deviceIdentity().deviceID
        _ = try await laptop.renameDevice(laptopID, to: "Work laptop", vault: "main")
        _ = try await laptop.sync(folder: folder)
        try older.write(to: URL(fileURLWithPath: notice))
        _ = try await laptop.sync(folder: folder)

        let report = try await phone.sync(folder: folder)
        #expect(report.vaults["main"]?.removed == true)
        #expect(try await operations(phone) == operations(laptop))
    }
}
