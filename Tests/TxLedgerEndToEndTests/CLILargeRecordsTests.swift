import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// Records as large as a frame lets them be wait for the merge a few at a time (Specs/crdt.md,
/// "Merging"; Specs/threat-model.md): batches close at 512 records or 4 MiB of frames, so an
/// import of a bundle, or a merge of a ledger file, of large records stays small at its peak
/// (600 records of 1 MiB messages took 1.5 GB when batches were counted in records only).
struct CLILargeRecordsTests {
    /// Records of 1 MiB each: at 256 to a batch, the batches waiting for the merge and in it
    /// would hold more than the bound.
    static let count = 200
    static let peakBound = 200 << 20

    /// A bundle of `count` sends that each carry a newer field of 1 MiB (a hostile writer's
    /// cheapest large record: kept as it came, nothing in it to check byte by byte), and the
    /// key file that opens it.
    static func largeBundle(in directory: TemporaryDirectory) async throws -> (bundle: String, keyFile: String) {
        let stamp = Stamp(time: 1_700_000_000_000 << 16, replica: ReplicaID(rawValue: 7))
        var payload = PayloadEncoder()
        payload.encode(BundleFixture.header)
        for index in 1...count {
            let state = RecordState(recording: try Fixture.minimalSend(vault: "vault-1", hash: index), stamp: stamp)
            var fields = state.fields
            fields[.explorerUrl] = nil  // the chain's default page, which a writer leaves out
            let large = NewerField(
                number: NewerFields.numbers.lowerBound,
                value: .bytes(Array(repeating: 0x61, count: 1 << 20))
            )
            fields.newer = NewerFields([large])
            payload.encodeFrame(fields)
        }
        let key = SyncKey.generate()
        let keyFile = directory.path("vault.key")
        try #require(
            FileManager.default.createFile(
                atPath: keyFile,
                contents: Data(key.printableText().utf8),
                attributes: [.posixPermissions: 0o600]
            )
        )
        return (try await BundleFixture.seal(payload.bytes, with: .syncKey(key), in: directory), keyFile)
    }

    @Test func largeRecordsAreImportedAndMergedAFewAtATime() async throws {
        let directory = try TemporaryDirectory()
        let (bundle, keyFile) = try await Self.largeBundle(in: directory)
        let importer = CLI(db: directory.path("import.sqlite"))
        let imported = try await KilledRun.run(importer, ["import", bundle, "--key-file", keyFile], killAt: .never)
        // The ledger file that import wrote, merged into another: its rows are as large.
        let merger = CLI(db: directory.path("merge.sqlite"))
        let merged = try await KilledRun.run(merger, ["merge", importer.db], killAt: .never)
        for (run, cli) in [(imported, importer), (merged, merger)] {
            #expect(!run.killed && run.status == 0)
            #expect(run.peakResident < Self.peakBound, "peak \(run.peakResident >> 20) MB")
            let listed = try await cli.run(["list", "--vault", "vault-1", "--limit", "1"])
            #expect(listed.stdout.contains("Sends \(Self.count)"), "\(listed.stdout.prefix(200))")
        }
    }
}
