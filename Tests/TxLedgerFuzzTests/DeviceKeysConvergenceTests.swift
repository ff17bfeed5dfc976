import Foundation
import PropertyBased
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerMembership
@testable import TxLedgerReplication
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

/// The convergence laws with membership changes (Specs/devices.md): devices of an upgraded
/// vault that record, fail transactions, remove one another (at once, crossing in the folder)
/// and keep writing once removed, all through one folder in any order, end with every remaining
/// member holding the same membership and the same records; no member holds a register a
/// removed device stamped past its cut; and every record a remaining member made is kept.
struct DeviceKeysConvergenceTests {
    enum Operation: CustomStringConvertible {
        case record(device: Int, tx: Int)
        case fail(device: Int, tx: Int)
        case sync(device: Int)
        case remove(device: Int, removed: Int)
        /// The device approves the spare device's request to join.
        case approveSpare(by: Int)

        var description: String {
            switch self {
            case let .record(d, tx): "record(\(d), \(tx))"
            case let .fail(d, tx): "fail(\(d), \(tx))"
            case let .sync(d): "sync(\(d))"
            case let .remove(d, r): "remove(\(d), \(r))"
            case let .approveSpare(d): "approveSpare(\(d))"
            }
        }
    }

    /// Devices of the upgraded vault, and the spare one (the last), which joins by approval.
    static let devices = 5
    static let spare = devices - 1

    static let generator = Generator<[Operation], Shrink.None<[Operation]>>(run: { rng in
        func device() -> Int { Int.random(in: 0..<devices, using: &rng) }
        return (0..<Int.random(in: 10...30, using: &rng)).map { _ in
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<30: .record(device: device(), tx: Int.random(in: 0..<10, using: &rng))
            case 30..<40: .fail(device: device(), tx: Int.random(in: 0..<10, using: &rng))
            case 40..<84: .sync(device: device())
            case 84..<92: .approveSpare(by: Int.random(in: 0..<spare, using: &rng))
            default: .remove(device: device(), removed: device())
            }
        }
    })

    @Test func membersConvergeAndNoRemovedDevicesLaterWriteCounts() async {
        await propertyCheck(count: 20, input: Self.generator) { operations in
            do {
                try await Self.check(operations)
            } catch {
                Issue.record(error, "\(operations)")
            }
        }
    }

    /// A case the law found: device 1 removes device 0, which (not knowing) removes device 3
    /// after device 3 recorded; the others set device 3's record aside, then learn that device
    /// 0's removal does not count. Device 3 must keep its record (a device never sets its own
    /// writes aside), the others must merge it again, and list nothing of device 3 as set aside.
    @Test func aRemovalThatStopsCountingGivesBackWhatItRefused() async throws {
        try await Self.check([
            .record(device: 3, tx: 8), .sync(device: 1), .sync(device: 0), .sync(device: 2),
            .remove(device: 1, removed: 0), .sync(device: 0), .remove(device: 0, removed: 3), .sync(device: 0),
            .sync(device: 3), .sync(device: 2), .sync(device: 3), .sync(device: 0), .sync(device: 2),
            .sync(device: 1),
        ])
    }

    /// A case the law found (seed `s0kRB1H0nbbRyGM5nbY4fLNWly7hTTN5TxZna94ztHs=`): device 0
    /// approves the spare, then removes device 3; device 1, which had seen neither, removes
    /// device 0, and device 3 removes device 1. None of the three removals counts, and the
    /// spare's add, which device 1 had not seen, is cut off: the spare is not a member though
    /// nobody is removed. It must still learn it (every member keeps a notice once its log
    /// holds a removal, and keeps it in step with its log).
    @Test func aDeviceWhoseApprovalWasCutOffLearnsIt() async throws {
        try await Self.check([
            .sync(device: 3), .sync(device: 2), .sync(device: 4), .sync(device: 0), .record(device: 3, tx: 7),
            .sync(device: 4), .record(device: 1, tx: 1), .record(device: 0, tx: 0), .sync(device: 0),
            .sync(device: 1), .sync(device: 2), .sync(device: 0), .approveSpare(by: 0), .sync(device: 4),
            .record(device: 3, tx: 5), .remove(device: 4, removed: 2), .sync(device: 1), .sync(device: 4),
            .fail(device: 1, tx: 5), .sync(device: 1), .fail(device: 2, tx: 3), .sync(device: 0),
            .remove(device: 3, removed: 1), .record(device: 2, tx: 2), .remove(device: 4, removed: 2),
            .remove(device: 1, removed: 0), .record(device: 3, tx: 8), .record(device: 0, tx: 7),
            .remove(device: 0, removed: 3), .sync(device: 3),
        ])
    }

    /// Runs `operations`, then four rounds of syncs of `finalSyncs` (every device by default),
    /// and checks the laws.
    static func check(_ operations: [Operation], finalSyncs: [Int] = Array(0..<devices)) async throws {
        let directory = try TemporaryDirectory()
        let folder = directory.path("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let secret = BundleSecret.syncKey(.generate())
        var ledgers: [Ledger] = []
        for device in 0..<devices {
            ledgers.append(
                try await Ledger.open(
                    path: directory.path("\(device).sqlite"),
                    options: .init(
                        logger: .quiet,
                        deviceKeys: FileDeviceKeyStore(path: directory.path("\(device).device")),
                        deviceName: "device \(device)"
                    )
                )
            )
        }
        // The upgrade: the devices synced with the secret; one founds, the others join with the
        // secret at their next sync. The spare has nothing, and no secret.
        let upgraded = ledgers.prefix(spare)
        for (device, ledger) in upgraded.enumerated() {
            try await ledger.record(try Fixture.send(vault: "main", hash: 100 + device))
            _ = try await ledger.sync(folder: folder, secret: secret)
        }
        try await ledgers[0].initDevices(vault: "main", secret: secret, name: "device 0")
        for _ in 0..<2 { for ledger in upgraded { _ = try await ledger.sync(folder: folder, secret: secret) } }
        let ids = try await ledgers.asyncMap { try await $0.deviceIdentity().deviceID }

        // Records each device made, with whether its maker was still a member in its own view.
        var made: [(id: TransactionID, device: Int)] = []
        for operation in operations {
            switch operation {
            case let .record(device, tx):
                let record = try Fixture.send(vault: "main", hash: 1000 * (device + 1) + tx)
                if try await ledgers[device].record(record).outcome == .recorded { made.append((record.id, device)) }
            case let .fail(device, tx):
                let id = try Fixture.send(vault: "main", hash: 1000 * (device + 1) + tx).id
                _ = try? await ledgers[device].updateStatus(id, to: .failed(reason: "forged"))
            case let .sync(device):
                _ = try await ledgers[device].sync(folder: folder)
            case let .approveSpare(device):
                guard let view = try await ledgers[device].devices(vault: "main"),
                    view.members.contains(where: { $0.id == ids[device] }),
                    !view.members.contains(where: { $0.id == ids[spare] }),
                    !view.removed.contains(where: { $0.id == ids[spare] })
                else { continue }
                try await ledgers[device].approve(try await ledgers[spare].joinRequest(vault: "main"))
            case let .remove(device, removed):
                guard device != removed,
                    let view = try await ledgers[device].devices(vault: "main"),
                    view.members.contains(where: { $0.id == ids[device] }),
                    view.members.contains(where: { $0.id == ids[removed] })
                else { continue }
                _ = try await ledgers[device].removeDevice(ids[removed], vault: "main")
            }
        }
        for _ in 0..<4 {
            for device in finalSyncs {
                _ = try await ledgers[device].sync(folder: folder)
            }
        }

        // Every device that some device still counts as a member agrees with the others.
        // (The spare has no view when no approval reached it.)
        let views = try await ledgers.asyncMap {
            try await $0.devices(vault: "main")
                ?? VaultDevices(vault: "main", members: [], removed: [], epoch: "", setAside: [])
        }
        let remaining = (0..<devices).filter { device in
            views[device].members.contains { $0.id == ids[device] }
        }
        guard let first = remaining.first else { return }
        let members = Set(views[first].members.map(\.id))
        for device in remaining {
            #expect(Set(views[device].members.map(\.id)) == members, "device \(device)'s members")
            #expect(
                Set(views[device].removed.map(\.id)) == Set(views[first].removed.map(\.id)),
                "device \(device)'s removed devices"
            )
        }
        let reference = try await ReplicaSnapshot(ledgers[first])
        for device in remaining.dropFirst() {
            #expect(try await ReplicaSnapshot(ledgers[device]) == reference, "device \(device)'s records")
        }
        // Set aside are only writes of removed devices.
        for device in remaining {
            #expect(views[device].setAside.allSatisfy { write in !members.contains(write.device) }, "device \(device)")
        }
        // No member holds a register a removed device stamped past its cut.
        let cuts = try #require(try await ledgers[first].read { try $0.membershipLog("main")?.evaluate().cuts })
        let states = try await ledgers[first].read { store in try store.fetchStored(vault: "main", changedAfter: 0) }
        for state in states {
            #expect(state.registers(refusedBy: cuts).isEmpty, "\(state.id) holds a removed device's later write")
        }
        // Every record a remaining member made is there.
        let held = Set(states.map(\.id))
        for (id, device) in made where remaining.contains(device) {
            #expect(held.contains(id), "\(id) made by device \(device) was lost")
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
