import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerMembership
@testable import TxLedgerSodium
@testable import TxLedgerTestSupport

/// A format 5 payload (Specs/devices.md, "Format 5"): the change set header, the device
/// section (author, first recovery, membership log), the records, and the author's signature.
struct DeviceKeyPayloadTests {
    let laptop = DeviceIdentity.generate()
    let tablet = DeviceIdentity.generate()
    let recovery = DeviceIdentity.generate()

    func log() throws -> [MembershipOperation] {
        let root = try MembershipOperation.signed(
            .add(laptop.publicIdentity, name: "Laptop", replica: ReplicaID(rawValue: 7)),
            vault: "vault-1",
            time: 1 << 16,
            parents: [],
            by: recovery,
            asRecovery: true
        )
        let add = try MembershipOperation.signed(
            .add(tablet.publicIdentity, name: "Tablet", replica: ReplicaID(rawValue: 8)),
            vault: "vault-1",
            time: 2 << 16,
            parents: [root.id],
            by: laptop
        )
        return [add, root]
    }

    @Test func aSignedPayloadReadsBackWithItsDeviceSectionAndRecords() async throws {
        let ledger = try await TestLedger()
        let record = try Fixture.send(hash: 1)
        try await ledger.ledger.record(record)
        let state = try #require(try await ledger.ledger.state(record.id))
        let section = DeviceSection(
            author: laptop.deviceID,
            firstRecovery: recovery.publicIdentity,
            operations: try log()
        )
        #expect(section.operations.map(\.id) == section.operations.map(\.id).sorted())
        var encoder = PayloadEncoder()
        encoder.encode(BundleFixture.header, devices: section)
        encoder.encode(state)

        let directory = try TemporaryDirectory()
        let path = directory.path("v5.txb")
        let writer = try BundleWriter(
            path: path,
            author: laptop,
            recipients: [laptop.publicIdentity, tablet.publicIdentity, recovery.publicIdentity]
        )
        try writer.write(encoder.bytes)
        _ = try writer.finish()

        let reader = try BundleReader(path: path, device: tablet)
        var decoder = try PayloadDecoder(reader)
        #expect(decoder.header.vaultId == "vault-1" && decoder.devices == section)
        let decoded = try #require(try decoder.next())
        #expect(decoded.facts.value.id == record.id)
        #expect(try decoder.next() == nil)
        #expect(reader.verifySignature(author: laptop.publicIdentity))

        var membership = MembershipLog(vault: "vault-1", firstRecovery: section.firstRecovery)
        for operation in section.operations { try membership.insert(operation) }
        #expect(Set(membership.evaluate().members.keys) == [laptop.deviceID, tablet.deviceID])
    }

    @Test func aSectionWithAnotherVaultsOrAForgedOperationIsMalformed() throws {
        let operations = try log()
        var otherVault = try MembershipOperation.signed(
            .rename(tablet.deviceID, name: "iPad"),
            vault: "savings",
            time: 3 << 16,
            parents: [],
            by: laptop
        )
        var bytes = DeviceSection(
            author: laptop.deviceID,
            firstRecovery: recovery.publicIdentity,
            operations: [otherVault]
        ).bytes
        var source = FrameBytes(bytes, unit: "a payload")
        #expect(throws: BundleError.malformedContent("a membership operation names another vault")) {
            try DeviceSection(reading: &source, vault: "vault-1")
        }

        otherVault = operations[0]
        bytes =
            DeviceSection(author: laptop.deviceID, firstRecovery: recovery.publicIdentity, operations: [otherVault])
            .bytes
        bytes[bytes.count - 1] ^= 1  // the operation's signature
        source = FrameBytes(bytes, unit: "a payload")
        #expect(throws: BundleError.malformedContent("a membership operation's signature does not verify")) {
            try DeviceSection(reading: &source, vault: "vault-1")
        }

        var twice = DeviceSection(author: laptop.deviceID, firstRecovery: recovery.publicIdentity, operations: []).bytes
        twice.removeLast()
        twice.appendUVarint(2)
        for operation in [operations[0], operations[0]] {
            twice.appendUVarint(UInt64(operation.encoded.count))
            twice += operation.encoded
        }
        source = FrameBytes(twice, unit: "a payload")
        #expect(throws: BundleError.malformedContent("the membership operations are not in increasing id order")) {
            try DeviceSection(reading: &source, vault: "vault-1")
        }
    }
}
