import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerSodium
@testable import TxLedgerTestSupport

/// Every way a bundle can be wrong, on real files: the import fails with the error of its
/// class and the target ledger is exactly as before.
@Suite struct BundleFailureTests {
    /// A multi-chunk bundle of each kind, and a target ledger that holds a record of its own.
    final class Setup: Sendable {
        let folder: TemporaryDirectory
        let source: TestLedger
        let target: TestLedger
        let secret: BundleSecret
        let bytes: [UInt8]
        let before: ReplicaSnapshot
        static let chunk = BundleWriter.chunkSize + SecretStreamEncryptor.abytes

        init(_ secret: BundleSecret) async throws {
            (folder, source, target, self.secret) = (
                try TemporaryDirectory(), try await TestLedger(), try await TestLedger(), secret
            )
            try await source.ledger.record(try BundleFixture.manyRecords())
            try await target.ledger.record(try Fixture.minimalSend(hash: 9999))
            let path = folder.path("good.txb")
            try await source.ledger.exportBundle(
                vault: "vault-1",
                to: path,
                secret: secret,
                passphraseCost: .interactive
            )
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            before = try await ReplicaSnapshot(target.ledger)
        }

        var chunkCount: Int { (bytes.count - BundleHeader.size + Self.chunk - 1) / Self.chunk }

        /// Imports `bytes` (written to a file) with `secret`, expecting `error`; checks that the
        /// target did not change.
        func expectImport(
            _ bytes: [UInt8],
            with secret: BundleSecret? = nil,
            fails error: BundleError,
            _ comment: Comment? = nil,
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws {
            let path = folder.path("\(UUID().uuidString).txb")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            await #expect(throws: error, comment, sourceLocation: sourceLocation) {
                try await self.target.ledger.importBundle(at: path, secret: secret ?? self.secret)
            }
            #expect(
                try await ReplicaSnapshot(target.ledger) == before,
                "the ledger is unchanged",
                sourceLocation: sourceLocation
            )
        }
    }

    @Test(arguments: try BundleFixture.secrets())
    func aWrongSecretIsCaughtByTheKeyCheck(secret: BundleSecret) async throws {
        let setup = try await Setup(secret)
        let wrong: BundleSecret =
            secret.mode == .syncKey ? .syncKey(.generate()) : .passphrase(try Passphrase("incorrect horse"))
        try await setup.expectImport(setup.bytes, with: wrong, fails: .wrongSecret(secret.mode))
        let otherKind: BundleSecret = secret.mode == .syncKey ? try BundleFixture.passphrase() : .syncKey(.generate())
        try await setup.expectImport(setup.bytes, with: otherKind, fails: .secretKindMismatch(bundle: secret.mode))
    }

    @Test(arguments: try BundleFixture.secrets())
    func everyHeaderFieldIsProtected(secret: BundleSecret) async throws {
        let setup = try await Setup(secret)
        func flipped(_ offset: Int, _ mask: UInt8 = 0x01) -> [UInt8] {
            var bytes = setup.bytes
            bytes[offset] ^= mask
            return bytes
        }
        try await setup.expectImport(flipped(0), fails: .notABundle)
        try await setup.expectImport(flipped(8, 0x08), fails: .unsupportedVersion("format version 13"))
        try await setup.expectImport(flipped(8, 0x03), fails: .unsupportedVersion("format version 6"))
        // Other formats readers know (5 ^ 1 = 4, 5 ^ 6 = 3, 5 ^ 7 = 2, 5 ^ 4 = 1): the MAC covers the version byte.
        for mask: UInt8 in [0x01, 0x06, 0x07, 0x04] {
            try await setup.expectImport(flipped(8, mask), fails: .headerTampered)
        }
        try await setup.expectImport(
            flipped(9, 0x04),
            fails: .unsupportedVersion("key mode \(secret.mode.rawValue ^ 4)")
        )
        // Salt and key check feed the key check: indistinguishable from a wrong secret.
        for offset in [22, 37, 38, 53] {
            try await setup.expectImport(flipped(offset), fails: .wrongSecret(secret.mode), "byte \(offset)")
        }
        // The stream header and the MAC itself: caught by the MAC.
        for offset in [54, 77, 78, 109] {
            try await setup.expectImport(flipped(offset), fails: .headerTampered, "byte \(offset)")
        }
        if secret.mode == .passphrase {
            try await setup.expectImport(flipped(13), fails: .wrongSecret(.passphrase), "one pass more")
            let cost = Argon2idCost.interactive
            try await setup.expectImport(
                flipped(14, 0x80),
                fails: .unsupportedVersion(
                    "Argon2id memory beyond the accepted bounds (\(cost.memoryBytes | 1 << 63) bytes)"
                )
            )
        } else {
            try await setup.expectImport(flipped(13), fails: .unsupportedVersion("KDF parameters with a sync key"))
        }
    }

    @Test(arguments: try BundleFixture.secrets())
    func aCutAtEveryChunkBoundaryIsTruncated(secret: BundleSecret) async throws {
        let setup = try await Setup(secret)
        #expect(setup.chunkCount >= 3)
        for chunks in 0..<setup.chunkCount {
            let end = BundleHeader.size + chunks * Setup.chunk
            try await setup.expectImport(Array(setup.bytes[..<end]), fails: .truncated, "cut after \(chunks) chunks")
        }
        // Inside a chunk, the cut chunk fails to authenticate.
        try await setup.expectImport(
            Array(setup.bytes.dropLast()),
            fails: .payloadTampered(chunk: setup.chunkCount - 1)
        )
        try await setup.expectImport(
            Array(setup.bytes[..<(BundleHeader.size + Setup.chunk + 100)]),
            fails: .payloadTampered(chunk: 1)
        )
    }

    @Test func aCutInsideTheHeaderIsCaughtBeforeAnyKeyIsDerived() async throws {
        let setup = try await Setup(.syncKey(.generate()))
        for end in 0..<BundleHeader.size {
            try await setup.expectImport(
                Array(setup.bytes[..<end]),
                fails: end < 8 ? .notABundle : .truncated,
                "cut at \(end)"
            )
        }
    }

    @Test(arguments: try BundleFixture.secrets())
    func payloadTamperingReorderingAndTrailingDataAreCaught(secret: BundleSecret) async throws {
        let setup = try await Setup(secret)
        for chunk in 0..<setup.chunkCount {
            var bytes = setup.bytes
            bytes[BundleHeader.size + chunk * Setup.chunk + 40] ^= 0x20
            try await setup.expectImport(bytes, fails: .payloadTampered(chunk: chunk))
        }
        var swapped = setup.bytes
        let (first, second) = (BundleHeader.size, BundleHeader.size + Setup.chunk)
        swapped.replaceSubrange(first..<first + Setup.chunk, with: setup.bytes[second..<second + Setup.chunk])
        swapped.replaceSubrange(second..<second + Setup.chunk, with: setup.bytes[first..<first + Setup.chunk])
        try await setup.expectImport(swapped, fails: .payloadTampered(chunk: 0))
        let lastChunkStart = BundleHeader.size + (setup.chunkCount - 1) * Setup.chunk
        var dropped = Array(setup.bytes[..<(lastChunkStart - Setup.chunk)])
        dropped += setup.bytes[lastChunkStart...]
        try await setup.expectImport(dropped, fails: .payloadTampered(chunk: setup.chunkCount - 2), "a chunk left out")
        // Bytes after a short final chunk are read as part of it, which then fails to authenticate.
        try await setup.expectImport(setup.bytes + [0], fails: .payloadTampered(chunk: setup.chunkCount - 1))
        try await setup.expectImport(
            setup.bytes + setup.bytes[lastChunkStart...],
            fails: .payloadTampered(chunk: setup.chunkCount - 1)
        )
    }

    @Test func bytesAfterAFullSizedFinalChunkAreTrailingData() async throws {
        let setup = try await Setup(.syncKey(.generate()))
        let path = setup.folder.path("full-final.txb")
        let writer = try BundleWriter(path: path, secret: setup.secret, cost: .interactive)
        try writer.write([UInt8](repeating: 0x41, count: BundleWriter.chunkSize))
        let size = try writer.finish()
        #expect(size == BundleHeader.size + Setup.chunk)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        try await setup.expectImport(bytes + [0], fails: .trailingData)
        try await setup.expectImport(bytes + setup.bytes[BundleHeader.size...], fails: .trailingData)
    }

    @Test func filesThatAreNoBundleAreRefused() async throws {
        let setup = try await Setup(.syncKey(.generate()))
        try await setup.expectImport([], fails: .notABundle)
        try await setup.expectImport(
            Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0, count: 200),
            fails: .notABundle
        )
        try await setup.expectImport((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }, fails: .notABundle)
        let missing = setup.folder.path("missing.txb")
        await #expect(throws: BundleError.io(path: missing, reason: "the file does not exist")) {
            try await setup.target.ledger.importBundle(at: missing, secret: setup.secret)
        }
    }

    /// A record that decodes but is not valid, early in a file whose last chunk is damaged:
    /// the damage is reported (a failure of the file comes before one of its content), though
    /// records are decoded and merged while the rest of the file is still being read.
    @Test func aDamagedChunkAfterAnInvalidRecordIsReportedFirst() async throws {
        let setup = try await Setup(.syncKey(.generate()))
        let changes = try await setup.source.ledger.changes(vault: "vault-1")
        var payload = PayloadEncoder()
        payload.encode(changes.header)
        for record in changes.records { payload.encode(record) }
        // The first amount of the file, rewritten in place to something that is no decimal.
        guard case let .send(send) = try #require(changes.records.first).facts.value.details else {
            Issue.record("the fixture's records are sends")
            return
        }
        let amount = send.amount.string
        var bytes = payload.bytes
        let start = try #require(bytes.firstRange(of: Array(amount.utf8)))
        bytes.replaceSubrange(start, with: Array((String(amount.dropLast()) + "x").utf8))
        let path = try await BundleFixture.seal(bytes, with: setup.secret, in: setup.folder)
        let sealed = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let chunks = (sealed.count - BundleHeader.size + Setup.chunk - 1) / Setup.chunk
        #expect(chunks >= 3)
        try await setup.expectImport(
            Array(sealed.dropLast()),
            fails: .payloadTampered(chunk: chunks - 1)
        )
        // Undamaged, the invalid record is what is reported.
        let refusal = await #expect(throws: BundleError.self) {
            try await setup.target.ledger.importBundle(at: path, secret: setup.secret)
        }
        #expect(refusal?.code == .malformedContent)
    }

    @Test func authenticContentThatIsInvalidIsRejected() async throws {
        let setup = try await Setup(.syncKey(.generate()))
        let header = BundleFixture.header
        var good = PayloadEncoder()
        good.encode(header)
        good.encode(try #require(try await setup.source.ledger.state(try Fixture.send(hash: 1).id)))

        func sealed(_ payload: [UInt8]) async throws -> [UInt8] {
            Array(
                try Data(
                    contentsOf: URL(
                        fileURLWithPath: try await BundleFixture.seal(payload, with: setup.secret, in: setup.folder)
                    )
                )
            )
        }
        // An amount that is not a decimal: field 13 (amount) rewritten in place.
        let amount = Array("1234567890.123456789012345678".utf8)
        let start = try #require(good.bytes.firstRange(of: amount))
        var badAmount = good.bytes
        badAmount.replaceSubrange(start, with: Array("1234567890.12345678901234567x".utf8))
        try await setup.expectImport(
            try await sealed(badAmount),
            fails: .malformedContent(
                "record 0: invalid amount: '1234567890.12345678901234567x' is not a decimal amount (digits with an optional fraction, e.g. 12.5)"
            )
        )
        try await setup.expectImport(
            try await sealed(Array(good.bytes.dropLast())),
            fails: .malformedContent("the payload ends inside a field")
        )

        // Registers beyond what a local write accepts: an oversized note, a reason on a confirmation.
        var hostile = try #require(try await setup.source.ledger.state(try Fixture.send(hash: 1).id))
        hostile.note = Register(String(repeating: "n", count: 10_001), stamp: hostile.facts.stamp)
        var noteEncoder = PayloadEncoder()
        noteEncoder.encode(header)
        noteEncoder.encode(hostile)
        try await setup.expectImport(
            try await sealed(noteEncoder.bytes),
            fails: .malformedContent(
                "record 0: invalid note: is 10001 bytes long; the limit is 10000"
            )
        )
        hostile.note = nil
        hostile.status = StatusRegister(
            terminal: Register(
                StatusUpdate(checked: .confirmed, confirmedAt: nil, failureReason: "x"),
                stamp: hostile.facts.stamp
            )
        )
        var reasonEncoder = PayloadEncoder()
        reasonEncoder.encode(header)
        reasonEncoder.encode(hostile)
        try await setup.expectImport(
            try await sealed(reasonEncoder.bytes),
            fails: .malformedContent(
                "record 0: invalid failureReason: only a failed transaction has a failure reason"
            )
        )
        try await setup.expectImport(
            try await sealed(good.bytes + [0x80, 0x00]),
            fails: .malformedContent("a varint is not minimal")
        )
        // Format 4 tags: a wire type no format defines, a field of the table under another wire
        // type than its own, a tag that does not step up, a step beyond the last number.
        try await setup.expectImport(
            try await sealed(good.bytes + [1, 1 << 3 | 6]),
            fails: .malformedContent(
                "record 1: field 1 has wire type 6, which no format defines"
            )
        )
        try await setup.expectImport(
            try await sealed(good.bytes + [2, 1 << 3 | 0, 0]),
            fails: .malformedContent(
                "record 1: field 1 (kind) has wire type 0, not 3"
            )
        )
        try await setup.expectImport(
            try await sealed(good.bytes + [2, 0, 0]),
            fails: .malformedContent(
                "record 1: a tag steps 0 from field 0 (fields go up, to at most 63999)"
            )
        )
        try await setup.expectImport(
            try await sealed(good.bytes + [4, 0x80, 0xA0, 0x1F, 0]),
            fails: .malformedContent(
                "record 1: a tag steps 64000 from field 0 (fields go up, to at most 63999)"
            )
        )
        // Formats 1 to 3 know the table's fields only, under plain numbers.
        var formatThree = PayloadEncoder()
        formatThree.encode(header)
        func sealedFormatThree(_ frame: [UInt8]) async throws -> [UInt8] {
            Array(
                try Data(
                    contentsOf: URL(
                        fileURLWithPath: try await BundleFixture.seal(
                            formatThree.bytes + frame,
                            with: setup.secret,
                            in: setup.folder,
                            version: 3
                        )
                    )
                )
            )
        }
        try await setup.expectImport(
            try await sealedFormatThree([2, 57, 0]),
            fails: .malformedContent("a field number 57 exceeds 56")
        )
        try await setup.expectImport(
            try await sealedFormatThree([4, 4, 4, 65, 1]),
            fails: .malformedContent("record 0: field 1 is out of order or unknown")
        )
    }
}
