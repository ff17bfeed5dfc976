import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// What a reader brings to its canonical form, and nothing else (Specs/bundle-format.md,
/// "Record frames", "Canonical forms"): of the payloads the mutator makes from the `ok` vectors
/// of formats 4 and 5 that a reader accepts, every field that reads back in another form than
/// it was written is one the spec lets a reader bring to its canonical form
/// (`RecordField.canonicalized`). A store keeps a received frame's bytes instead of encoding the
/// record again only when none of these fields was brought to another form
/// (`FrameDecoder.receivedRecord`, `ReceivedFrameTests`).
struct CanonicalFormTests {
    /// The fields a reader may bring to their canonical form.
    static let canonicalized = Set(RecordField.canonicalized)

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
                let written = try await Self.writtenFields(path, secret: secret)
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

    /// The fields of each frame of the bundle at `path` as written (before the record's values
    /// are checked and brought to their canonical forms), read on a thread of its own.
    static func writtenFields(_ path: String, secret: BundleSecret) async throws -> [RecordFields] {
        try await DedicatedThread.run {
            var decoder = try PayloadDecoder(BundleReader(path: path, secret: secret))
            var fields: [RecordFields] = []
            while let next = try decoder.nextWrittenFields() { fields.append(next) }
            return fields
        }
    }

    /// The fields whose value as written differs from the record's (a default explorer page is
    /// left out of both, as a writer leaves it out).
    static func differing(_ written: RecordFields, _ record: RecordState) -> [RecordField] {
        var read = record.fields
        if written[.explorerUrl] == nil { read[.explorerUrl] = nil }
        return RecordField.all.filter { written[$0] != read[$0] }
    }
}
