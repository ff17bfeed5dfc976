import Foundation
import PropertyBased
import Testing

@testable import TxLedgerCore
@testable import TxLedgerMembership
@testable import TxLedgerSodium

/// The membership log and its evaluation (Specs/devices.md, "Membership").
struct MembershipTests {
    /// A vault's devices and its log, for writing operations as they would.
    struct Vault {
        let recovery = DeviceIdentity.generate()
        var log: MembershipLog
        var time: UInt64 = 1 << 16

        init() { log = MembershipLog(vault: "main", firstRecovery: recovery.publicIdentity) }

        /// `change` signed by `signer`, naming `parents` (default: the log's heads), added to
        /// the log.
        @discardableResult
        mutating func apply(
            _ change: MembershipChange,
            by signer: DeviceIdentity,
            asRecovery: Bool = false,
            parents: Set<OperationID>? = nil
        ) throws -> MembershipOperation {
            time += 1 << 16
            let operation = try MembershipOperation.signed(
                change,
                vault: "main",
                time: time,
                parents: parents ?? log.heads,
                by: signer,
                asRecovery: asRecovery
            )
            try log.insert(operation)
            return operation
        }

        static func add(_ device: DeviceIdentity, _ name: String, replica: Int64) -> MembershipChange {
            .add(device.publicIdentity, name: name, replica: ReplicaID(rawValue: replica))
        }

        static func remove(_ device: DeviceIdentity, newRecovery: DeviceIdentity? = nil) -> MembershipChange {
            .remove(
                device.deviceID,
                cut: RemovalCut(replica: ReplicaID(rawValue: 9), time: 5),
                newRecovery: newRecovery?.publicIdentity
            )
        }

        var members: Set<DeviceID> { Set(log.evaluate().members.keys) }
    }

    let laptop = DeviceIdentity.generate()
    let tablet = DeviceIdentity.generate()
    let phone = DeviceIdentity.generate()

    /// The laptop founded by the recovery secret, the tablet and the phone added by it.
    func threeDevices() throws -> Vault {
        var vault = Vault()
        try vault.apply(Vault.add(laptop, "Laptop", replica: 1), by: vault.recovery, asRecovery: true)
        try vault.apply(Vault.add(tablet, "Tablet", replica: 2), by: laptop)
        try vault.apply(Vault.add(phone, "Phone", replica: 3), by: laptop)
        return vault
    }

    @Test func theRecoverySecretFoundsAVaultAndMembersAddOthers() throws {
        let vault = try threeDevices()
        let membership = vault.log.evaluate()
        #expect(Set(membership.members.keys) == [laptop.deviceID, tablet.deviceID, phone.deviceID])
        #expect(membership.members[laptop.deviceID]?.addedBy == nil)
        #expect(membership.members[tablet.deviceID]?.addedBy == laptop.deviceID)
        #expect(membership.members[phone.deviceID]?.name == "Phone")
        #expect(membership.member(writingAs: ReplicaID(rawValue: 2))?.id == tablet.deviceID)
        #expect(membership.recovery == [vault.recovery.publicIdentity])
    }

    @Test func aStrangerOrAnotherRecoverySecretAddsNobody() throws {
        var vault = try threeDevices()
        let stranger = DeviceIdentity.generate()
        try vault.apply(Vault.add(DeviceIdentity.generate(), "Evil", replica: 7), by: stranger)
        try vault.apply(Vault.add(DeviceIdentity.generate(), "Evil", replica: 8), by: stranger, asRecovery: true)
        #expect(vault.members == [laptop.deviceID, tablet.deviceID, phone.deviceID])
    }

    @Test func aRemovalBeatsTheRemovedDevicesAddsItsRemoverHadNotSeen() throws {
        var vault = try threeDevices()
        let before = vault.log.heads
        let watch = DeviceIdentity.generate()
        let seen = try vault.apply(Vault.add(watch, "Watch", replica: 4), by: phone)
        // The laptop removes the phone having seen the watch's add: the watch stays.
        var knowing = vault
        try knowing.apply(Vault.remove(phone), by: laptop)
        #expect(knowing.members == [laptop.deviceID, tablet.deviceID, watch.deviceID])
        // Not having seen it (a concurrent removal): the watch never joins.
        try vault.apply(Vault.remove(phone), by: laptop, parents: before)
        #expect(vault.members == [laptop.deviceID, tablet.deviceID])
        #expect(vault.log.evaluate().removed[phone.deviceID]?.removedBy == [laptop.deviceID])
        #expect(vault.log.operations[seen.id] != nil)
    }

    @Test func aRemovedDeviceCanTakeOnlyItsRemoverWithIt() throws {
        var vault = try threeDevices()
        let before = vault.log.heads
        try vault.apply(Vault.remove(phone), by: laptop)
        // The stolen phone pretends it had not seen its removal and removes everyone.
        try vault.apply(Vault.remove(laptop), by: phone, parents: before)
        try vault.apply(Vault.remove(tablet), by: phone, parents: before)
        #expect(vault.members == [tablet.deviceID])
        // After its removal (having seen it) it removes nobody.
        var later = try threeDevices()
        try later.apply(Vault.remove(phone), by: laptop)
        try later.apply(Vault.remove(tablet), by: phone)
        #expect(later.members == [laptop.deviceID, tablet.deviceID])
    }

    /// A stolen phone, removed, signs with its old parents an add of a device of its own, which
    /// removes the others: the device acts for the phone (its authority is an add the laptop had
    /// not seen), so it can take with it only the phone's remover, as the phone itself could.
    @Test func aDeviceAddedBehindItsAddersRemoverActsForItsAdder() throws {
        var vault = try threeDevices()
        let before = vault.log.heads
        try vault.apply(Vault.remove(phone), by: laptop)
        var direct = vault
        let puppet = DeviceIdentity.generate()
        let add = try vault.apply(Vault.add(puppet, "Puppet", replica: 7), by: phone, parents: before)
        try vault.apply(Vault.remove(laptop), by: puppet, parents: [add.id])
        try vault.apply(Vault.remove(tablet), by: puppet, parents: [add.id])
        let membership = vault.log.evaluate()
        #expect(Set(membership.members.keys) == [tablet.deviceID])
        #expect(Set(membership.removed.keys) == [laptop.deviceID, phone.deviceID])
        // Adding a device of its own gave it nothing more than its own removals would have.
        try direct.apply(Vault.remove(laptop), by: phone, parents: before)
        try direct.apply(Vault.remove(tablet), by: phone, parents: before)
        #expect(direct.log.evaluate().members == membership.members)
        #expect(Set(direct.log.evaluate().removed.keys) == Set(membership.removed.keys))
    }

    /// The stolen phone, removed, removes the tablet with its old parents: that removal does not
    /// count, and must not cut off what the tablet does having seen it (it adds a watch, removes
    /// the phone again, renames itself): only operations concurrent with a removal are cut off.
    @Test func aRemovalThatDoesNotCountCutsOffNothingItsTargetDoesAfterIt() throws {
        var vault = try threeDevices()
        let before = vault.log.heads
        try vault.apply(Vault.remove(phone), by: laptop)
        try vault.apply(Vault.remove(tablet), by: phone, parents: before)
        let watch = DeviceIdentity.generate()
        try vault.apply(Vault.add(watch, "Watch", replica: 8), by: tablet)
        try vault.apply(.rename(tablet.deviceID, name: "Kitchen iPad"), by: tablet)
        let membership = vault.log.evaluate()
        #expect(Set(membership.members.keys) == [laptop.deviceID, tablet.deviceID, watch.deviceID])
        #expect(membership.members[tablet.deviceID]?.name == "Kitchen iPad")
        #expect(Set(membership.removed.keys) == [phone.deviceID])
    }

    /// The same through the recovery secret: the removed phone rotates it, with its old
    /// parents, to an identity of its own, which approves a device that removes the tablet.
    /// The laptop's removal cut the rotation off, so nothing that rests on it counts.
    @Test func anIdentityARemovedDeviceRotatedToApprovesNothing() throws {
        var vault = try threeDevices()
        let before = vault.log.heads
        try vault.apply(Vault.remove(phone), by: laptop)
        let stolen = DeviceIdentity.generate()
        let rotation = try vault.apply(.rotateRecovery(stolen.publicIdentity), by: phone, parents: before)
        let puppet = DeviceIdentity.generate()
        let add = try vault.apply(
            Vault.add(puppet, "Puppet", replica: 7),
            by: stolen,
            asRecovery: true,
            parents: [rotation.id]
        )
        try vault.apply(Vault.remove(tablet), by: puppet, parents: [add.id])
        let membership = vault.log.evaluate()
        #expect(Set(membership.members.keys) == [laptop.deviceID, tablet.deviceID])
        #expect(Set(membership.removed.keys) == [phone.deviceID])
        #expect(membership.recovery == [vault.recovery.publicIdentity])
    }

    @Test func aRemovedDeviceNeverComesBackUnderItsId() throws {
        var vault = try threeDevices()
        try vault.apply(Vault.remove(phone), by: laptop)
        // Added again by a member that saw the removal, and by the recovery secret: still out.
        try vault.apply(Vault.add(phone, "Phone again", replica: 5), by: tablet)
        try vault.apply(Vault.add(phone, "Phone again", replica: 6), by: vault.recovery, asRecovery: true)
        #expect(vault.members == [laptop.deviceID, tablet.deviceID])
        #expect(vault.log.evaluate().removed[phone.deviceID] != nil)
    }

    @Test func twoDevicesRemovingEachOtherAtOnceBothStayRemoved() throws {
        var vault = try threeDevices()
        let before = vault.log.heads
        try vault.apply(Vault.remove(tablet), by: laptop, parents: before)
        try vault.apply(Vault.remove(laptop), by: tablet, parents: before)
        #expect(vault.members == [phone.deviceID])
    }

    @Test func aReplacedRecoverySecretApprovesNothingItsReplacerHadNotSeen() throws {
        var vault = try threeDevices()
        let before = vault.log.heads
        let newRecovery = DeviceIdentity.generate()
        try vault.apply(Vault.remove(phone, newRecovery: newRecovery), by: laptop)
        #expect(vault.log.evaluate().recovery == [newRecovery.publicIdentity])
        let intruder = DeviceIdentity.generate()
        try vault.apply(
            Vault.add(intruder, "Old secret", replica: 5),
            by: vault.recovery,
            asRecovery: true,
            parents: before
        )
        try vault.apply(Vault.add(intruder, "Old secret", replica: 5), by: vault.recovery, asRecovery: true)
        #expect(!vault.members.contains(intruder.deviceID))
        let rescued = DeviceIdentity.generate()
        try vault.apply(Vault.add(rescued, "New phone", replica: 6), by: newRecovery, asRecovery: true)
        #expect(vault.members == [laptop.deviceID, tablet.deviceID, rescued.deviceID])
    }

    @Test func theLatestRenameNamesAMember() throws {
        var vault = try threeDevices()
        try vault.apply(.rename(tablet.deviceID, name: "Kitchen iPad"), by: tablet)
        try vault.apply(.rename(tablet.deviceID, name: "iPad"), by: laptop)
        #expect(vault.log.evaluate().members[tablet.deviceID]?.name == "iPad")
    }

    @Test func anOperationWaitsForItsParentsAndCountsOnceTheyCome() throws {
        var vault = try threeDevices()
        let watch = DeviceIdentity.generate()
        let add = try vault.apply(Vault.add(watch, "Watch", replica: 4), by: tablet)
        let rename = try vault.apply(.rename(watch.deviceID, name: "Wrist"), by: watch)
        var late = MembershipLog(vault: "main", firstRecovery: vault.recovery.publicIdentity)
        #expect(try late.insert(rename) == false)
        #expect(late.waitingCount == 1)
        for operation in vault.log.operations.values where operation.id != rename.id && operation.id != add.id {
            try late.insert(operation)
        }
        #expect(try late.insert(add))
        #expect(late.waitingCount == 0 && late.evaluate() == vault.log.evaluate())
    }

    @Test func anotherVaultsOperationIsRefused() throws {
        let vault = try threeDevices()
        var other = MembershipLog(vault: "savings", firstRecovery: vault.recovery.publicIdentity)
        #expect(throws: BundleError.self) { try other.insert(try #require(vault.log.operations.values.first)) }
    }

    /// A log near the size a vault allows evaluates in about n² steps: 300 devices added one
    /// after another, each renaming itself, 100 of them removed (701 operations). An
    /// evaluation that compared every operation with every other in every view (n³) would
    /// take minutes here.
    @Test func aLargeLogEvaluates() throws {
        var vault = Vault()
        try vault.apply(Vault.add(laptop, "Laptop", replica: 1), by: vault.recovery, asRecovery: true)
        let devices = (0..<300).map { Self.device(UInt8($0 % 250), salt: UInt8($0 / 250)) }
        for (index, device) in devices.enumerated() {
            try vault.apply(Vault.add(device, "d\(index)", replica: Int64(index + 10)), by: laptop)
            try vault.apply(.rename(device.deviceID, name: "r\(index)"), by: device)
        }
        for device in devices.prefix(100) { try vault.apply(Vault.remove(device), by: laptop) }
        #expect(vault.log.operations.count == 701)
        let membership = vault.log.evaluate()
        #expect(membership.members.count == 201 && membership.removed.count == 100)
        #expect(membership.members[devices[299].deviceID]?.name == "r299")
    }

    // MARK: - Encoding

    @Test func theSpecsOperationsDecodeAndEncodeByteForByte() throws {
        let vector = try DeviceIdentityTests.vector("operations")
        let signer = DeviceIdentityTests.identity(seedHex: try #require(vector["signer"] as? String))
        let add = try #require(vector["add"] as? [String: Any])
        let remove = try #require(vector["remove"] as? [String: Any])
        let decodedAdd = try MembershipOperation(
            encoded: DeviceIdentityTests.bytes(try #require(add["encoded"] as? String))
        )
        #expect(decodedAdd.id.bytes == DeviceIdentityTests.bytes(try #require(add["id"] as? String)))
        guard case let .add(identity, name, replica) = decodedAdd.change else { return #expect(Bool(false)) }
        #expect(identity.deviceID.bytes == DeviceIdentityTests.bytes(try #require(add["device"] as? String)))
        #expect(name == "Tablet" && replica.rawValue == 42 && decodedAdd.author == .device(signer.publicIdentity))
        let resigned = try MembershipOperation.signed(
            decodedAdd.change,
            vault: "main",
            time: decodedAdd.time,
            parents: [],
            by: signer
        )
        #expect(resigned.encoded == decodedAdd.encoded)

        let decodedRemove = try MembershipOperation(
            encoded: DeviceIdentityTests.bytes(try #require(remove["encoded"] as? String))
        )
        #expect(decodedRemove.parents == [decodedAdd.id])
        #expect(
            decodedRemove.change
                == .remove(
                    identity.deviceID,
                    cut: RemovalCut(replica: ReplicaID(rawValue: 42), time: 5 << 16),
                    newRecovery: nil
                )
        )
    }

    /// `Specs/vectors/devices/evaluation.json`: logs whose meaning devices.md's "Evaluation"
    /// decides (the expectations written by hand; `scripts/device-vectors.py --check` evaluates
    /// them too, as a second implementation).
    @Test func theEvaluationVectorsMeanWhatTheSpecSays() throws {
        let vector = try DeviceIdentityTests.vector("evaluation")
        let first = DeviceIdentityTests.identity(seedHex: try #require(vector["firstRecoverySeed"] as? String))
        let cases = try #require(vector["cases"] as? [[String: Any]])
        #expect(cases.count == 6)
        for entry in cases {
            let name = try #require(entry["name"] as? String)
            var log = MembershipLog(vault: "main", firstRecovery: first.publicIdentity)
            for encoded in try #require(entry["operations"] as? [String]) {
                #expect(try log.insert(MembershipOperation(encoded: DeviceIdentityTests.bytes(encoded))), "\(name)")
            }
            let membership = log.evaluate()
            func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
            #expect(membership.members.keys.map { hex($0.bytes) }.sorted() == entry["members"] as? [String], "\(name)")
            #expect(membership.removed.keys.map { hex($0.bytes) }.sorted() == entry["removed"] as? [String], "\(name)")
            #expect(membership.recovery.map { hex($0.bytes) }.sorted() == entry["recovery"] as? [String], "\(name)")
        }
    }

    @Test func anyChangedByteOfAnOperationIsRefused() throws {
        let encoded = try threeDevices().log.operations.values.first { $0.parents.isEmpty }!.encoded
        for position in encoded.indices {
            var changed = encoded
            changed[position] ^= 0x01
            #expect(throws: BundleError.self) { try MembershipOperation(encoded: changed) }
        }
        #expect(throws: BundleError.self) { try MembershipOperation(encoded: Array(encoded.dropLast())) }
    }

    // MARK: - Convergence

    /// Operations of a random history: devices drawn from a pool (members or not) add, remove,
    /// rename and rotate, each naming a random part of what exists as parents.
    static let histories = Generator<[MembershipOperation], Shrink.None<[MembershipOperation]>>(run: { rng in
        let recovery = device(7)
        let pool = [recovery] + (0..<5).map { device(UInt8($0)) }
        var operations: [MembershipOperation] = []
        for step in 0..<Int.random(in: 1...14, using: &rng) {
            let signer = pool[Int.random(in: 0..<pool.count, using: &rng)]
            let target = pool[Int.random(in: 1..<pool.count, using: &rng)]
            let change: MembershipChange =
                switch Int.random(in: 0..<4, using: &rng) {
                case 0, 1: .add(target.publicIdentity, name: "d\(step)", replica: ReplicaID(rawValue: Int64(step)))
                case 2:
                    .remove(
                        target.deviceID,
                        cut: RemovalCut(replica: ReplicaID(rawValue: 1), time: UInt64(step)),
                        newRecovery: Bool.random(using: &rng)
                            ? pool[Int.random(in: 0..<pool.count, using: &rng)].publicIdentity : nil
                    )
                default: .rename(target.deviceID, name: "r\(step)")
                }
            let parents = Set(operations.filter { _ in Bool.random(using: &rng) }.map(\.id))
            operations.append(
                try! MembershipOperation.signed(
                    change,
                    vault: "main",
                    time: UInt64(Int.random(in: 1...20, using: &rng)),
                    parents: parents,
                    by: signer,
                    asRecovery: signer.deviceID == recovery.deviceID || Bool.random(using: &rng) && step % 3 == 0
                )
            )
        }
        return operations
    })

    /// The device whose seed is 31 times `byte` and `salt`.
    static func device(_ byte: UInt8, salt: UInt8 = 0) -> DeviceIdentity {
        DeviceIdentity(
            seed: ([UInt8](repeating: byte, count: 31) + [salt]).withUnsafeBytes { SecretBytes(copying: $0) }
        )
    }

    static func evaluation(of operations: [MembershipOperation]) throws -> Membership {
        var log = MembershipLog(vault: "main", firstRecovery: device(7).publicIdentity)
        for operation in operations { try log.insert(operation) }
        return log.evaluate()
    }

    @Test func theEvaluationDependsOnTheSetNotTheOrderNorRepeats() async {
        await propertyCheck(count: 150, input: Self.histories) { operations in
            var rng = SystemRandomNumberGenerator()
            let shuffled = operations.shuffled(using: &rng)
            let repeated = operations + operations.shuffled(using: &rng).prefix(operations.count / 2)
            let reference = try Self.evaluation(of: operations)
            #expect(try Self.evaluation(of: shuffled) == reference)
            #expect(try Self.evaluation(of: repeated) == reference)
        }
    }
}
