import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerMembership
@testable import TxLedgerSodium
@testable import TxLedgerTestSupport

/// The format 5 vectors, `Specs/vectors/v5/index.json` (Specs/devices.md, "Vectors"): files
/// sealed for a vault's devices and signed, each read by a fresh ledger holding one device's
/// seed. `scripts/device-vectors.py` checks their stanzas, keys and signatures with libsodium
/// alone. `TXLEDGER_WRITE_DEVICE_VECTORS=1 swift test --filter DeviceVectorTests` writes them
/// anew (sealed boxes are random, so the files change; what they must give does not).
struct DeviceVectorTests {
    struct Entry: Codable {
        let name: String
        let comment: String
        let file: String
        /// The reading device's seed, in hex.
        let readerSeed: String
        /// The author's device id, in hex, as the file's device section names it.
        let author: String
        /// `ok`, or the failure class (`BundleError.code`).
        let expect: String
        /// Records visible after the import, writes set aside, and devices the reader's log
        /// counts as removed (device ids in hex).
        let records: Int
        let setAside: Int
        let removed: [String]
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Specs/vectors/v5")

    static func identity(_ byte: UInt8) throws -> DeviceIdentity {
        try [UInt8](repeating: byte, count: 32).withUnsafeBytes { try DeviceIdentity(seedBytes: $0) }
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func everyVectorGivesItsExpectedOutcome() async throws {
        let entries = try JSONDecoder().decode(
            [Entry].self,
            from: Data(contentsOf: Self.folder.appendingPathComponent("index.json"))
        )
        #expect(entries.count == 7)
        for entry in entries {
            let directory = try TemporaryDirectory()
            let keys = FileDeviceKeyStore(path: directory.path("reader.device"))
            let seed = try #require(Array(hex: entry.readerSeed))
            try await keys.save(try seed.withUnsafeBytes { try DeviceIdentity(seedBytes: $0) })
            let ledger = try await Ledger.open(
                path: directory.path("reader.sqlite"),
                options: .init(logger: .quiet, deviceKeys: keys)
            )
            var outcome = "ok"
            do {
                try await ledger.importBundle(at: Self.folder.appendingPathComponent(entry.file).path)
            } catch let error as BundleError {
                outcome = error.code.rawValue
            }
            #expect(outcome == entry.expect, "\(entry.name)")
            #expect(try await ledger.all().count == entry.records, "\(entry.name)")
            let devices = try await ledger.devices(vault: "main")
            #expect(devices?.setAside.count ?? 0 == entry.setAside, "\(entry.name)")
            #expect(Set(devices?.removed.map { Self.hex($0.id.bytes) } ?? []) == Set(entry.removed), "\(entry.name)")
        }
    }

    /// The second implementation agrees: stanzas, keys, MAC, chunks, operations and signatures,
    /// and what the evaluation vectors' logs mean.
    @Test(.enabled(if: Python.path != nil, "needs python3"))
    func anIndependentReaderAgrees() async throws {
        let root = Self.folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: Python.path!),
            [root.appendingPathComponent("scripts/device-vectors.py").path, "--check"]
        )
        let output = String(decoding: result.stdout + result.stderr, as: UTF8.self)
        #expect(result.status == 0, "\(output)")
        // The seven format 5 files and the six evaluation cases.
        #expect(output.components(separatedBy: "as expected").count == 14, "\(output)")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["TXLEDGER_WRITE_DEVICE_VECTORS"] != nil))
    func writeTheVectors() throws {
        try VectorWriter().write()
    }
}

/// Writes `Specs/vectors/v5`: a vault founded by its recovery secret (seed 01…), whose laptop
/// (02…, replica 1) added the tablet (03…, replica 2) and the phone (04…, replica 3), then
/// removed the phone at a cut; mallory (05…) was never a member.
private struct VectorWriter {
    let recovery = try! DeviceIdentity.vectorIdentity(1)
    let laptop = try! DeviceIdentity.vectorIdentity(2)
    let tablet = try! DeviceIdentity.vectorIdentity(3)
    let phone = try! DeviceIdentity.vectorIdentity(4)
    let mallory = try! DeviceIdentity.vectorIdentity(5)
    static let base: Int64 = 1_780_000_000_000
    static let cut = Stamp(millis: base + 50_000, replica: ReplicaID(rawValue: 3))

    func stamp(_ seconds: Int64, _ replica: Int64) -> Stamp {
        Stamp(millis: Self.base + seconds * 1000, replica: ReplicaID(rawValue: replica))
    }

    /// The log without and with the phone's removal.
    func log(removal: Bool) throws -> [MembershipOperation] {
        var time = UInt64(Self.base << 16)
        func next() -> UInt64 {
            time += 1 << 16
            return time
        }
        let founded = try MembershipOperation.signed(
            .add(laptop.publicIdentity, name: "Laptop", replica: ReplicaID(rawValue: 1)),
            vault: "main",
            time: next(),
            parents: [],
            by: recovery,
            asRecovery: true
        )
        let tabletAdded = try MembershipOperation.signed(
            .add(tablet.publicIdentity, name: "Tablet", replica: ReplicaID(rawValue: 2)),
            vault: "main",
            time: next(),
            parents: [founded.id],
            by: laptop
        )
        let phoneAdded = try MembershipOperation.signed(
            .add(phone.publicIdentity, name: "Phone", replica: ReplicaID(rawValue: 3)),
            vault: "main",
            time: next(),
            parents: [tabletAdded.id],
            by: laptop
        )
        guard removal else { return [founded, tabletAdded, phoneAdded] }
        let removed = try MembershipOperation.signed(
            .remove(
                phone.deviceID,
                cut: RemovalCut(replica: ReplicaID(rawValue: 3), time: UInt64(Self.cut.time)),
                newRecovery: nil
            ),
            vault: "main",
            time: next(),
            parents: [phoneAdded.id],
            by: laptop
        )
        return [founded, tabletAdded, phoneAdded, removed]
    }

    func send(_ n: Int, _ stamp: Stamp) throws -> RecordState {
        RecordState(recording: try Fixture.send(vault: "main", hash: n), stamp: stamp)
    }

    /// A file of vault main written as `origin`, its device section naming `author`, signed by
    /// `signer`, for `recipients`.
    func file(
        _ name: String,
        author: DeviceIdentity,
        signer: DeviceIdentity? = nil,
        origin: Int64,
        recipients: [DeviceIdentity],
        removal: Bool,
        records: [RecordState]
    ) throws {
        let path = DeviceVectorTests.folder.appendingPathComponent(name).path
        try? FileManager.default.removeItem(atPath: path)
        let writer = try BundleWriter(
            path: path,
            author: signer ?? author,
            recipients: recipients.map(\.publicIdentity)
        )
        var encoder = PayloadEncoder()
        encoder.encode(
            ChangeSetHeader(
                vaultId: "main",
                origin: ReplicaID(rawValue: origin),
                since: 0,
                through: Int64(records.count),
                knowledge: [:],
                clearedThrough: nil
            ),
            devices: DeviceSection(
                author: author.deviceID,
                firstRecovery: recovery.publicIdentity,
                operations: try log(removal: removal)
            )
        )
        for record in records { encoder.encode(record) }
        try writer.write(encoder.bytes)
        _ = try writer.finish()
    }

    func write() throws {
        try FileManager.default.createDirectory(at: DeviceVectorTests.folder, withIntermediateDirectories: true)
        let all = [laptop, tablet, phone, recovery]
        let two = [try send(1, stamp(1, 1)), try send(2, stamp(2, 1))]
        try file("signed.txb", author: laptop, origin: 1, recipients: all, removal: false, records: two)
        try file(
            "not-a-recipient.txb",
            author: laptop,
            origin: 1,
            recipients: [laptop, tablet, recovery],
            removal: false,
            records: two
        )
        try file(
            "forged-signature.txb",
            author: laptop,
            signer: mallory,
            origin: 1,
            recipients: all,
            removal: false,
            records: two
        )
        try file("not-a-member.txb", author: mallory, origin: 5, recipients: all, removal: false, records: two)
        try file(
            "removal.txb",
            author: laptop,
            origin: 1,
            recipients: [laptop, tablet, recovery],
            removal: true,
            records: two
        )
        // The tablet relays the phone's `failed` of record 1, stamped after the phone's cut.
        var relayed = try send(1, stamp(1, 1))
        guard case let .success(failed) = relayed.status.applying(.failed(reason: "forged"), stamp: stamp(100, 3))
        else {
            throw BundleError.malformedContent("a failed status must apply")
        }
        relayed.status = failed
        try file(
            "relayed-past-cut.txb",
            author: tablet,
            origin: 2,
            recipients: [laptop, tablet, recovery],
            removal: true,
            records: [relayed]
        )
        try file(
            "removed-author.txb",
            author: phone,
            origin: 3,
            recipients: all,
            removal: true,
            records: [try send(3, stamp(100, 3))]
        )
        let id = { (device: DeviceIdentity) in DeviceVectorTests.hex(device.deviceID.bytes) }
        let seed = { (byte: UInt8) in DeviceVectorTests.hex([UInt8](repeating: byte, count: 32)) }
        let phoneRemoved = [id(phone)]
        let entries: [DeviceVectorTests.Entry] = [
            .init(
                name: "signed",
                comment:
                    "the laptop's full change set of two records, for every member and the recovery identity, signed",
                file: "signed.txb",
                readerSeed: seed(3),
                author: id(laptop),
                expect: "ok",
                records: 2,
                setAside: 0,
                removed: []
            ),
            .init(
                name: "not-a-recipient",
                comment: "sealed without the phone's stanza; the phone reads it",
                file: "not-a-recipient.txb",
                readerSeed: seed(4),
                author: id(laptop),
                expect: "not_a_recipient",
                records: 0,
                setAside: 0,
                removed: []
            ),
            .init(
                name: "forged-signature",
                comment: "names the laptop as its author, signed by mallory",
                file: "forged-signature.txb",
                readerSeed: seed(3),
                author: id(laptop),
                expect: "bad_signature",
                records: 0,
                setAside: 0,
                removed: []
            ),
            .init(
                name: "not-a-member",
                comment: "mallory's own file: never a member",
                file: "not-a-member.txb",
                readerSeed: seed(3),
                author: id(mallory),
                expect: "not_a_member",
                records: 0,
                setAside: 0,
                removed: []
            ),
            .init(
                name: "removal",
                comment: "the laptop's file after it removed the phone (cut at base + 50 s): no stanza for the phone",
                file: "removal.txb",
                readerSeed: seed(3),
                author: id(laptop),
                expect: "ok",
                records: 2,
                setAside: 0,
                removed: phoneRemoved
            ),
            .init(
                name: "relayed-past-cut",
                comment:
                    "the tablet relays record 1 with the phone's failed status stamped after its cut: the status is set aside, the record stays broadcasted",
                file: "relayed-past-cut.txb",
                readerSeed: seed(2),
                author: id(tablet),
                expect: "ok",
                records: 1,
                setAside: 1,
                removed: phoneRemoved
            ),
            .init(
                name: "removed-author",
                comment:
                    "the phone's own file, carrying its removal, with a record made after its cut: set aside, nothing merged",
                file: "removed-author.txb",
                readerSeed: seed(3),
                author: id(phone),
                expect: "not_a_member",
                records: 0,
                setAside: 1,
                removed: phoneRemoved
            ),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try (encoder.encode(entries) + Data("\n".utf8)).write(
            to: DeviceVectorTests.folder.appendingPathComponent("index.json")
        )
    }
}

extension DeviceIdentity {
    /// The identity of the seed of 32 bytes `byte`.
    fileprivate static func vectorIdentity(_ byte: UInt8) throws -> DeviceIdentity {
        try DeviceVectorTests.identity(byte)
    }
}

extension Array where Element == UInt8 {
    fileprivate init?(hex: String) {
        guard hex.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self = bytes
    }
}
