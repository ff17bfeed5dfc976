import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerMembership
@testable import TxLedgerReplication
@testable import TxLedgerTestSupport

/// What an import of a vault with device keys refuses, and what it leaves behind (Specs/devices.md,
/// "Reading and writing a vault's files"): nothing of a forged file, of a non-member's, or of one
/// sealed with the former shared secret.
struct DeviceKeyImportTests {
    let directory: TemporaryDirectory
    let secret = BundleSecret.syncKey(.generate())
    let laptop: Ledger, tablet: Ledger

    init() async throws {
        directory = try TemporaryDirectory()
        laptop = try await Self.ledger(directory, "laptop")
        tablet = try await Self.ledger(directory, "tablet")
        try await laptop.record(try Fixture.send(vault: "main", hash: 1))
        try await laptop.initDevices(vault: "main", secret: secret, name: "Laptop")
        let first = directory.path("first.txb")
        try await laptop.exportBundle(vault: "main", to: first, scope: .full)
        try await tablet.importBundle(at: first, secret: secret, vault: "main")
        try await tablet.initDevices(vault: "main", secret: secret, name: "Tablet")
    }

    static func ledger(_ directory: TemporaryDirectory, _ name: String) async throws -> Ledger {
        try await Ledger.open(
            path: directory.path(name + ".sqlite"),
            options: .init(logger: .quiet, deviceKeys: FileDeviceKeyStore(path: directory.path(name + ".device")))
        )
    }

    /// A format 5 file of vault main holding record `hash`, whose device section names
    /// `claimed` as its author and `operations` (by default the laptop's log), signed by
    /// `signer`, for `reader` (by default the tablet).
    func file(
        claiming claimed: DeviceID,
        signedBy signer: DeviceIdentity,
        hash: Int,
        operations: [MembershipOperation]? = nil,
        for reader: Ledger? = nil
    ) async throws -> String {
        let path = directory.path(UUID().uuidString + ".txb")
        let log = try #require(try await laptop.read { try $0.membershipLog("main") })
        let writer = try BundleWriter(
            path: path,
            author: signer,
            recipients: [try await (reader ?? tablet).deviceIdentity().publicIdentity]
        )
        var encoder = PayloadEncoder()
        let header = ChangeSetHeader(
            vaultId: "main",
            origin: ReplicaID(rawValue: 77),
            since: 0,
            through: 1,
            knowledge: [:],
            clearedThrough: nil
        )
        encoder.encode(
            header,
            devices: DeviceSection(
                author: claimed,
                firstRecovery: log.firstRecovery,
                operations: operations ?? Array(log.operations.values)
            )
        )
        let record = try Fixture.send(vault: "main", hash: hash)
        encoder.encode(RecordState(recording: record, stamp: Stamp(millis: 1_000, replica: ReplicaID(rawValue: 77))))
        try writer.write(encoder.bytes)
        _ = try writer.finish()
        return path
    }

    @Test func aForgedSignatureLeavesNothing() async throws {
        let before = try await tablet.all()
        let mallory = DeviceIdentity.generate()
        let forged = try await file(claiming: try await laptop.deviceIdentity().deviceID, signedBy: mallory, hash: 2)
        await #expect(throws: BundleError.badSignature) { try await tablet.importBundle(at: forged) }
        #expect(try await tablet.all() == before)
        // The same file signed by the laptop itself imports.
        let honest = try await file(
            claiming: try await laptop.deviceIdentity().deviceID,
            signedBy: try await laptop.deviceIdentity(),
            hash: 2
        )
        try await tablet.importBundle(at: honest)
        #expect(try await tablet.all().count == before.count + 1)
    }

    @Test func aFileOfADeviceThatWasNeverAMemberIsRefusedWholeAndKeepsNothing() async throws {
        let before = try await tablet.all()
        let operations = try await tablet.read { try $0.membershipLog("main")!.operations.count }
        let mallory = DeviceIdentity.generate()
        let path = try await file(claiming: mallory.deviceID, signedBy: mallory, hash: 3)
        let error = await #expect(throws: BundleError.self) { try await tablet.importBundle(at: path) }
        #expect(error?.code == .notAMember)
        #expect(try await tablet.all() == before)
        #expect(try await tablet.read { try $0.membershipLog("main")!.operations.count } == operations)
        #expect(try await tablet.devices(vault: "main")?.setAside.isEmpty == true)
    }

    @Test func aFileSealedWithTheFormerSharedSecretIsRefusedOnceTheVaultHasDeviceKeys() async throws {
        let old = try await Self.ledger(directory, "old")
        try await old.record(try Fixture.send(vault: "main", hash: 4))
        let path = directory.path("old.txb")
        try await old.exportBundle(vault: "main", to: path, secret: secret, scope: .full)
        let before = try await tablet.all()
        let error = await #expect(throws: BundleError.self) { try await tablet.importBundle(at: path, secret: secret) }
        #expect(error?.code == .notAMember)
        #expect(try await tablet.all() == before)
        // A ledger without device keys for the vault still reads it.
        try await old.importBundle(at: path, secret: secret)
    }

    @Test func theRecoverySecretReadsAMembersFileAndAWrongSecretDoesNot() async throws {
        let path = directory.path("laptop.txb")
        try await laptop.exportBundle(vault: "main", to: path, scope: .full)
        let stranger = try await Self.ledger(directory, "stranger")
        await #expect(throws: BundleError.notARecipient) {
            try await stranger.importBundle(at: path, secret: .syncKey(.generate()), vault: "main")
        }
        #expect(try await stranger.all().isEmpty)
        // The recovery secret opens it, naming the vault (a stanza names none).
        await #expect(throws: BundleError.notARecipient) { try await stranger.importBundle(at: path, secret: secret) }
        try await stranger.importBundle(at: path, secret: secret, vault: "main")
        #expect(try await stranger.all().count == 1)
    }

    @Test func aRemovedDevicesFileKeepsOnlyItsOwnRemovals() async throws {
        let phone = try await Self.ledger(directory, "phone")
        try await laptop.approve(try await phone.joinRequest(vault: "main"))
        let tabletID = try await tablet.deviceIdentity().deviceID
        let phoneID = try await phone.deviceIdentity().deviceID
        for (from, to) in [(tablet, laptop), (laptop, tablet)] {
            let path = directory.path(UUID().uuidString + ".txb")
            try await from.exportBundle(vault: "main", to: path, scope: .full)
            try await to.importBundle(at: path)
        }
        _ = try await laptop.removeDevice(tabletID, vault: "main")
        // Not knowing it, the tablet removes the phone, then adds a device.
        _ = try await tablet.removeDevice(phoneID, vault: "main")
        let watch = try await Self.ledger(directory, "watch")
        let watchID = try await watch.deviceIdentity().deviceID
        try await tablet.approve(try await watch.joinRequest(vault: "main"))
        let path = directory.path("tablet.txb")
        try await tablet.exportBundle(vault: "main", to: path, scope: .full)

        let before = try await laptop.read { try $0.membershipLog("main")!.operations.count }
        let records = try await laptop.all()
        let error = await #expect(throws: BundleError.self) { try await laptop.importBundle(at: path) }
        #expect(error?.code == .notAMember)
        // Its removal is kept (and cut off by the tablet's own removal); its later add is not.
        let after = try await laptop.read { try $0.membershipLog("main")!.operations.count }
        #expect(after == before + 1, "\(before) -> \(after)")
        let devices = try #require(try await laptop.devices(vault: "main"))
        #expect(Set(devices.members.map(\.id)).isSuperset(of: [phoneID]))
        #expect(!devices.members.contains { $0.id == watchID })
        #expect(try await laptop.all() == records)
    }

    /// The tablet, removed by the laptop and not knowing it, approves a watch and removes the car;
    /// the watch, approved behind the laptop's back, removes the phone. The tablet's file carries
    /// both removals and the watch's add; the laptop keeps the tablet's removal with the add it
    /// descends from, and counts neither, but not the watch's removal: the watch never had the
    /// right to sign (its add is cut off; it acts for the tablet, which can take with it only
    /// its remover).
    @Test func aDeviceARemovedDeviceApprovedRemovesNobody() async throws {
        let phone = try await Self.ledger(directory, "phone")
        let car = try await Self.ledger(directory, "car")
        try await laptop.approve(try await phone.joinRequest(vault: "main"))
        try await laptop.approve(try await car.joinRequest(vault: "main"))
        try await send(from: tablet, to: laptop)
        try await send(from: laptop, to: tablet)
        let (laptopID, tabletID) = (
            try await laptop.deviceIdentity().deviceID, try await tablet.deviceIdentity().deviceID
        )
        let (phoneID, carID) = (try await phone.deviceIdentity().deviceID, try await car.deviceIdentity().deviceID)
        _ = try await laptop.removeDevice(tabletID, vault: "main")
        let watch = try await Self.ledger(directory, "watch")
        try await tablet.approve(try await watch.joinRequest(vault: "main"))
        _ = try await tablet.removeDevice(carID, vault: "main")
        try await send(from: tablet, to: watch)
        _ = try await watch.removeDevice(phoneID, vault: "main")
        try await send(from: watch, to: tablet)
        #expect(try await tablet.devices(vault: "main")?.members.contains { $0.id == phoneID } == false)

        let before = try await laptop.read { try $0.membershipLog("main")!.operations.count }
        let error = await #expect(throws: BundleError.self) { try await send(from: tablet, to: laptop) }
        #expect(error?.code == .notAMember)
        let after = try await laptop.read { try $0.membershipLog("main")!.operations.count }
        #expect(after == before + 2, "the watch's add and the tablet's removal: \(before) -> \(after)")
        let devices = try #require(try await laptop.devices(vault: "main"))
        #expect(Set(devices.members.map(\.id)) == [laptopID, phoneID, carID])
        #expect(Set(devices.removed.map(\.id)) == [tabletID])
    }

    /// The phone, removed by the laptop and not knowing it, removes the tablet; its file reaches
    /// the laptop, then the tablet, which approves a watch having seen both removals. The
    /// phone's removal does not count, and cuts off nothing the tablet did after it: the watch
    /// is a member on the laptop.
    @Test func aRemovalThatDoesNotCountFreezesNobody() async throws {
        let (phone, tabletID, phoneID) = try await phoneApprovedEverywhere()
        _ = try await laptop.removeDevice(phoneID, vault: "main")
        _ = try await phone.removeDevice(tabletID, vault: "main")
        let error = await #expect(throws: BundleError.self) { try await send(from: phone, to: laptop) }
        #expect(error?.code == .notAMember)
        try await send(from: laptop, to: tablet)
        let watch = try await Self.ledger(directory, "watch")
        try await tablet.approve(try await watch.joinRequest(vault: "main"))
        try await send(from: tablet, to: laptop)
        let devices = try #require(try await laptop.devices(vault: "main"))
        let watchID = try await watch.deviceIdentity().deviceID
        #expect(devices.members.contains { $0.id == watchID })
        #expect(Set(devices.removed.map(\.id)) == [phoneID])
    }

    /// The phone, removed by the laptop and not knowing it, approves a puppet, which renames
    /// itself again and again: operations of another author, which a removed device's file
    /// relays. The laptop keeps none of them (the puppet never had the right to sign: its add
    /// is cut off), so a removed device cannot fill the vault's log through devices of its own.
    @Test func aRemovedDevicesFileRelaysNoOperationOfADeviceItAddedAfterItsRemoval() async throws {
        let (phone, tabletID, phoneID) = try await phoneApprovedEverywhere()
        _ = try await laptop.removeDevice(phoneID, vault: "main")
        let puppet = try await Self.ledger(directory, "puppet")
        try await phone.approve(try await puppet.joinRequest(vault: "main"))
        _ = try await phone.removeDevice(tabletID, vault: "main")
        try await send(from: phone, to: puppet)
        let puppetIdentity = try await puppet.deviceIdentity().publicIdentity
        for round in 0..<5 {
            _ = try await puppet.renameDevice(puppetIdentity.deviceID, to: "Puppet \(round)", vault: "main")
        }
        try await send(from: puppet, to: phone)

        let error = await #expect(throws: BundleError.self) { try await send(from: phone, to: laptop) }
        #expect(error?.code == .notAMember)
        let log = try #require(try await laptop.read { try $0.membershipLog("main") })
        #expect(!log.operations.values.contains { $0.author.identity == puppetIdentity })
        // The phone's removal and the add it descends from are kept, and count for nothing.
        #expect(log.operations.values.contains { $0.author.identity.deviceID == phoneID })
        let devices = try #require(try await laptop.devices(vault: "main"))
        #expect(devices.members.contains { $0.id == tabletID })
        #expect(!devices.members.contains { $0.id == puppetIdentity.deviceID })
    }

    /// The same through the recovery secret: the removed phone, with its old parents, rotates the
    /// recovery secret to an identity of its own (and removes the tablet after it, so that its
    /// file keeps the rotation), which approves a puppet that renames itself. The laptop keeps
    /// the phone's own two operations, and nothing the identity or the puppet signed.
    @Test func aRemovedDevicesFileRelaysNothingOfAnIdentityItRotatedTo() async throws {
        let (phone, tabletID, phoneID) = try await phoneApprovedEverywhere()
        let held = try #require(try await phone.read { try $0.membershipLog("main") })
        _ = try await laptop.removeDevice(phoneID, vault: "main")
        let (signer, stolen, puppet) = (
            try await phone.deviceIdentity(), DeviceIdentity.generate(), DeviceIdentity.generate()
        )
        var time: UInt64 = 1 << 50
        func signed(
            _ change: MembershipChange,
            by identity: DeviceIdentity,
            after parents: Set<OperationID>,
            asRecovery: Bool = false
        ) throws -> MembershipOperation {
            time += 1
            return try MembershipOperation.signed(
                change,
                vault: "main",
                time: time,
                parents: parents,
                by: identity,
                asRecovery: asRecovery
            )
        }
        let rotation = try signed(.rotateRecovery(stolen.publicIdentity), by: signer, after: held.heads)
        let removal = try signed(
            .remove(tabletID, cut: RemovalCut(replica: ReplicaID(rawValue: 2), time: 0), newRecovery: nil),
            by: signer,
            after: [rotation.id]
        )
        let add = try signed(
            .add(puppet.publicIdentity, name: "Puppet", replica: ReplicaID(rawValue: 99)),
            by: stolen,
            after: [rotation.id],
            asRecovery: true
        )
        var relayed = [add]
        for round in 0..<5 {
            relayed.append(
                try signed(.rename(puppet.deviceID, name: "Puppet \(round)"), by: puppet, after: [relayed.last!.id])
            )
        }
        let path = try await file(
            claiming: phoneID,
            signedBy: signer,
            hash: 3,
            operations: Array(held.operations.values) + [rotation, removal] + relayed,
            for: laptop
        )
        let before = try await laptop.read { try $0.membershipLog("main")!.operations.count }
        let error = await #expect(throws: BundleError.self) { try await laptop.importBundle(at: path) }
        #expect(error?.code == .notAMember)
        let log = try #require(try await laptop.read { try $0.membershipLog("main") })
        #expect(log.operations.count == before + 2, "the phone's rotation and removal")
        #expect(
            !log.operations.values.contains {
                [stolen.publicIdentity, puppet.publicIdentity].contains($0.author.identity)
            }
        )
        #expect(try await laptop.devices(vault: "main")?.members.contains { $0.id == tabletID } == true)
    }

    /// A phone the laptop approved, once the laptop, the tablet and the phone hold the same log;
    /// with the tablet's and the phone's device ids.
    func phoneApprovedEverywhere() async throws -> (phone: Ledger, tabletID: DeviceID, phoneID: DeviceID) {
        let phone = try await Self.ledger(directory, "phone")
        try await laptop.approve(try await phone.joinRequest(vault: "main"))
        try await send(from: tablet, to: laptop)
        try await send(from: laptop, to: tablet)
        try await send(from: laptop, to: phone)
        return (phone, try await tablet.deviceIdentity().deviceID, try await phone.deviceIdentity().deviceID)
    }

    /// Exports `from`'s whole vault and imports it into `to`.
    func send(from: Ledger, to: Ledger) async throws {
        let path = directory.path(UUID().uuidString + ".txb")
        try await from.exportBundle(vault: "main", to: path, scope: .full)
        try await to.importBundle(at: path)
    }

    @Test func theDefaultDeviceNameIsOneLineOfAtMost64Bytes() {
        let name = Ledger.Options.defaultDeviceName
        #expect((1...MembershipOperation.maxNameBytes).contains(name.utf8.count))
        #expect(!name.contains(where: \.isNewline) && !name.contains("."))
        #expect(Ledger.Options().deviceName == nil && Ledger.Options().joiningName == name)
    }
}
