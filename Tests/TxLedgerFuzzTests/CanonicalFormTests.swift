import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// What a reader brings to its canonical form, and nothing else (Specs/bundle-format.md,
/// "Record frames", "Canonical forms"): of the payloads the mutator makes from the `ok` vectors
/// of formats 4 and 5 that a reader accepts, every field that reads back in another form than
/// it was written is one the spec lets a reader bring to its canonical form. A store that kept
/// a received frame's bytes instead of encoding the record again would differ from the
/// encoder exactly in these fields.
struct CanonicalFormTests {
    /// The fields a reader may bring to their canonical form.
    static let canonicalized: Set<RecordField> = [
        .chain, .fromChain, .toChain, .txHash, .replaces, .replacedBy, .spends, .labels,
    ]

    @Test func onlyCanonicalFormsAreRepaired() async throws {
        let folder = try TemporaryDirectory()
        let secret = BundleSecret.syncKey(.generate())
        var accepted = 0
        var repaired: [RecordField: Int] = [:]
        for (index, vector) in try BundleVector.all().filter({ $0.expect == "ok" }).enumerated() {
            let (payload, version) = try await BundleFuzzTests.payload(of: vector)
            guard version >= 4 else { continue }
            var rng = BundleFuzzTests.rng(500 + index)
            for _ in 0..<BundleFuzzTests.iterations / 2 {
                let mutated = Mutator.mutate(payload, using: &rng)
                let path = try await BundleFixture.seal(mutated, with: secret, in: folder, version: version)
                defer { try? FileManager.default.removeItem(atPath: path) }
                guard let changes = try? await BundleFixture.decode(path, secret: secret) else { continue }
                accepted += 1
                let written = try Self.writtenFields(mutated, version: version, header: changes.header)
                #expect(written.count == changes.records.count)
                for (fields, record) in zip(written, changes.records) {
                    for field in Self.differing(fields, record) { repaired[field, default: 0] += 1 }
                }
            }
        }
        print("canonical forms: \(accepted) accepted, repaired \(repaired.map { "\($0.key.name) \($0.value)" })")
        #expect(accepted > 0)
        #expect(Set(repaired.keys).isSubset(of: Self.canonicalized), "\(repaired)")
    }

    /// The fields of each frame of `payload` as written (read by the frame decoder, before the
    /// record's values are checked and brought to their canonical forms).
    static func writtenFields(_ payload: [UInt8], version: UInt8, header: ChangeSetHeader) throws -> [RecordFields] {
        var source = FrameBytes(payload, unit: "a payload")
        _ = try source.readText(limit: 1024)
        var frames = FrameDecoder(version: version, origin: try FrameDecoder.replica(try source.readID64()))
        _ = try source.readUVarint()
        _ = try source.readUVarint()
        if version >= 3 {
            for _ in 0..<(try source.readUVarint()) {
                _ = try source.readID64()
                _ = try source.readUVarint()
            }
        }
        for _ in 0..<(try source.readUVarint()) {
            _ = try frames.readReplica(from: &source)
            _ = try source.readUVarint()
            if version >= 3 { _ = try source.readID64() }
        }
        if try source.readUVarint() == 1 {
            _ = try source.readSVarint()
            _ = try frames.readReplica(from: &source)
        }
        var fields: [RecordFields] = []
        while !source.isAtEnd {
            let length = Int(try source.readUVarint())
            fields.append(try frames.fields(try source.readBytes(length), vault: header.vaultId, index: fields.count))
        }
        return fields
    }

    /// The fields whose value as written differs from the record's (a default explorer page is
    /// left out of both, as a writer leaves it out).
    static func differing(_ written: RecordFields, _ record: RecordState) -> [RecordField] {
        var read = record.fields
        if written[.explorerUrl] == nil { read[.explorerUrl] = nil }
        return RecordField.all.filter { written[$0] != read[$0] }
    }
}
