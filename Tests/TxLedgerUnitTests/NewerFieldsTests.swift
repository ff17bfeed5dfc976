import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Devices on different versions (bundle-format.md, "Newer fields"; crdt.md, "Newer fields"):
/// this version keeps what a newer one writes in fields it does not know, passes it on
/// unchanged, joins it by its stamps, and erases it with a clear by the same rule as the rest.
struct NewerFieldsTests {
    let secret = BundleSecret.syncKey(.generate())
    let folder: TemporaryDirectory
    static let newerStamp = Stamp(millis: 1_751_371_400_000, replica: ReplicaID(rawValue: 0x0C))
    static let newerDevice = ReplicaID(rawValue: 0x0C)

    init() throws {
        folder = try TemporaryDirectory()
    }

    /// A failed send and a swap as a newer version sends them.
    static func newerStates() throws -> [RecordState] {
        let stamp = Stamp(millis: 1_751_371_300_000, replica: newerDevice)
        return [
            try NewerVersion.extended(
                RecordState(recording: try Fixture.send(status: .failed(reason: "reverted")), stamp: stamp),
                registerStamp: newerStamp
            ),
            try NewerVersion.extended(
                RecordState(recording: try Fixture.swap(), stamp: stamp),
                registerStamp: newerStamp,
                fact: 300
            ),
        ]
    }

    /// A bundle of `states` from the newer device.
    func newerBundle(_ states: [RecordState]) async throws -> String {
        var encoder = PayloadEncoder()
        encoder.encode(
            ChangeSetHeader(
                vaultId: "vault-1",
                origin: Self.newerDevice,
                since: 0,
                through: 1,
                knowledge: [:],
                lineage: [Epoch(id: EpochID(rawValue: 0x0C), firstSeq: 1)],
                clearedThrough: nil
            )
        )
        for state in states { encoder.encode(state) }
        return try await BundleFixture.seal(encoder.bytes, with: secret, in: folder)
    }

    func held(_ ledger: TestLedger) async throws -> [RecordState] {
        try await ledger.ledger.changes(vault: "vault-1").records.sorted { $0.id < $1.id }
    }

    @Test func anOlderReaderRelaysANewerVersionsFieldsIntact() async throws {
        let newer = try Self.newerStates().sorted { $0.id < $1.id }
        let older = try await TestLedger()
        let next = try await TestLedger()
        try await older.ledger.importBundle(at: try await newerBundle(newer), secret: secret)
        #expect(try await held(older) == newer)

        // Its export carries them, as the newer device wrote them; the next reader holds them too.
        let export = folder.path("relay.txb")
        try await older.ledger.exportBundle(vault: "vault-1", to: export, secret: secret, scope: .full)
        let relayed = try await BundleFixture.decode(export, secret: secret)
        #expect(relayed.records.sorted { $0.id < $1.id } == newer)
        #expect(relayed.records.allSatisfy { !$0.newerFields.isEmpty })
        try await next.ledger.importBundle(at: export, secret: secret)
        #expect(try await held(next) == newer)
    }

    @Test func aLocalWriteReplacesItsRegistersNewerFieldsAndKeepsTheOthers() async throws {
        let newer = try Self.newerStates()
        let older = try await TestLedger(clock: ManualClock(Fixture.start.addingTimeInterval(3600)))
        try await older.ledger.importBundle(at: try await newerBundle(newer), secret: secret)
        let send = try Fixture.send().id
        try await older.ledger.setNote("paid rent", for: send)
        try await older.ledger.updateStatus(send, to: .confirmed(at: Fixture.start))
        let state = try #require(try await older.ledger.state(send))
        let before = try #require(newer.first { $0.id == send })
        // The terminal register was written again, without the newer version's field 2000;
        // the facts' fields and the register of block 6 are untouched.
        #expect(state.status.terminal?.newerFields.isEmpty == true)
        #expect(state.facts.newerFields == before.facts.newerFields && !state.facts.newerFields.isEmpty)
        #expect(state.newerRegisters == before.newerRegisters && state.newerRegisters.count == 1)
        #expect(!state.newerFields.fields.contains { $0.number == 2000 })
    }

    @Test func oneStampWithTwoSetsOfNewerFieldsJoinsTheSameBothWays() throws {
        let stamp = Stamp(millis: 5, replica: ReplicaID(rawValue: 1))
        let a = Register(
            String?("note"),
            stamp: stamp,
            newerFields: NewerFields([NewerField(number: 3000, value: .varint(1))])
        )
        let b = Register(
            String?("note"),
            stamp: stamp,
            newerFields: NewerFields([NewerField(number: 3000, value: .varint(2))])
        )
        #expect(a.joined(with: b) == b && b.joined(with: a) == b)
        let plain = Register(String?("note"), stamp: stamp)
        #expect(plain.joined(with: a) == a && a.joined(with: plain) == a, "no newer fields order first")
    }

    /// A clear erases each register stamped at or before its watermark with the newer fields of
    /// that register; a newer register stamped after it survives, keeping the record.
    @Test func aClearErasesNewerFieldsWithTheirRegisters() async throws {
        let ledger = try await TestLedger()
        try await ledger.ledger.importBundle(at: try await newerBundle(try Self.newerStates()), secret: secret)
        // Another replica's clear, whose watermark falls after the facts and terminal stamps
        // (…300_000) and before the block 6 register's (…400_000).
        func clear(at millis: Int64) async throws {
            var encoder = PayloadEncoder()
            encoder.encode(
                ChangeSetHeader(
                    vaultId: "vault-1",
                    origin: ReplicaID(rawValue: 0x0D),
                    since: 0,
                    through: 0,
                    knowledge: [:],
                    lineage: [],
                    clearedThrough: Stamp(millis: millis, replica: ReplicaID(rawValue: 0x0D))
                )
            )
            try await ledger.ledger.importBundle(
                at: try await BundleFixture.seal(encoder.bytes, with: secret, in: folder),
                secret: secret
            )
        }
        try await clear(at: 1_751_371_350_000)
        let left = try await held(ledger)
        #expect(left.count == 2)
        for state in left {
            #expect(state.status.terminal == nil && state.lastCheckedAt == nil)
            #expect(state.newerRegisters[RecordState.Block.firstNewer]?.stamp == Self.newerStamp)
            #expect(!state.newerFields.fields.contains { $0.number == 2000 })
        }
        #expect(try await ledger.ledger.all().isEmpty)

        // A later clear, past the block 6 register, leaves nothing.
        try await clear(at: 1_751_371_450_000)
        #expect(try await held(ledger).isEmpty)
    }

    @Test func theStoredFormReadsBackEveryWireType() throws {
        let fields = NewerVersion.fields(of: try Self.newerStates()[0], registerStamp: Self.newerStamp, fact: 7)
        #expect(Set(fields.fields.map(\.value.wireType)) == Set(WireType.allCases))
        #expect(try NewerFields(storedBytes: fields.storedBytes) == fields)
        // Out of order, out of range, an unknown wire type, a stamp time after the year 3000.
        func field(_ number: UInt64, _ wire: UInt64, _ value: UInt64) -> [UInt8] {
            var bytes: [UInt8] = []
            bytes.appendUVarint(number << 3 | wire)
            bytes.appendUVarint(value)
            return bytes
        }
        for (bytes, reason) in [
            (field(100, 0, 1) + field(100, 0, 1), "field 100 is out of order or out of range"),
            (field(56, 0, 1), "field 56 is out of order or out of range"),
            (field(64_000, 0, 1), "field 64000 is out of order or out of range"),
            (field(100, 6, 1), "field 100 has wire type 6"),
            (field(100, 1, UInt64(Stamp.latestTime) + 1), "field 100's stamp time is after the year 3000"),
        ] {
            #expect(throws: LedgerError.invalidInput(field: "newer_fields", reason: reason)) {
                try NewerFields(storedBytes: bytes)
            }
        }
    }

    @Test func newerFieldsAreStoredInTheRecordsFrame() async throws {
        let ledger = try await TestLedger()
        try await ledger.ledger.importBundle(at: try await newerBundle(try Self.newerStates()), secret: secret)
        let stored = try #require(try await ledger.reopened().state(try Fixture.send().id))
        #expect(!stored.newerFields.isEmpty)
        #expect(stored.newerFields == (try Self.newerStates()[0]).newerFields)
    }
}
