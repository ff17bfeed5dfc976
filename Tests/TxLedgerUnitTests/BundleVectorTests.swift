import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerReplication
@testable import TxLedgerSodium
@testable import TxLedgerTestSupport

/// The test vectors of Specs/vectors: every one, of formats 5 (with a shared secret), 4, 3, 2
/// and 1, is read as `import` reads a bundle and must give its expected outcome.
/// `TXLEDGER_WRITE_VECTORS=1 swift test --filter writeVectors` writes a new format 5 set (new
/// random keys, salts and nonces); the contents they expect come from the source ledgers, not
/// from decoding the bundles. The format 4, 3, 2 and 1 sets were written by their formats'
/// writers and stay as they are.
@Suite struct BundleVectorTests {
    @Test func everyVectorGivesItsExpectedOutcome() async throws {
        try await checkEveryVector()
    }

    /// What a device that upgraded does with a bundle an older TxLedger wrote: it imports, and
    /// the ledger then holds exactly the records the vector says, stamps included.
    @Test func aFormatOneBundleImports() async throws {
        let vector = try #require(
            try BundleVector.all().first { $0.folder == BundleVector.formatOneFolder && $0.name == "key-full" }
        )
        let expected = try #require(vector.contents)
        let target = try await TestLedger()
        let imported = try await target.ledger.importBundle(at: vector.path, secret: try vector.secret())
        #expect(imported.info.formatVersion == 1)
        let held = try await target.ledger.changes(vault: expected.vault)
        #expect(BundleVector.Contents(held.header, records: held.records).records == expected.records)
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["TXLEDGER_WRITE_VECTORS"] == "1"))
    func writeVectors() async throws {
        try await VectorWriter().write()
        try await checkEveryVector()
    }

    private func checkEveryVector() async throws {
        let vectors = try BundleVector.all()
        for folder in BundleVector.folders {
            let set = vectors.filter { $0.folder == folder }
            let ok =
                switch folder {
                case BundleVector.formatOneFolder: 3
                case BundleVector.folder, BundleVector.formatFourFolder: 5
                default: 4
                }
            #expect(set.count >= 16 && set.filter { $0.expect == "ok" }.count == ok, "\(folder.lastPathComponent)")
            #expect(
                Set(set.map(\.expect)).isSuperset(of: [
                    "ok", "not_a_bundle", "wrong_secret", "secret_kind_mismatch", "header_tampered",
                    "payload_tampered", "truncated", "trailing_data", "malformed_content",
                ])
            )
        }
        #expect(vectors.contains { $0.expect == "unsupported_version" })
        for vector in vectors {
            let path = vector.path
            do {
                let contents = try await BundleVector.decode(path, secret: try vector.secret())
                #expect(vector.expect == "ok", "\(vector.name): decoded, expected \(vector.expect)")
                #expect(contents == vector.contents, "\(vector.name): decoded contents")
            } catch let error as BundleError {
                #expect(error.code.rawValue == vector.expect, "\(vector.name): \(error)")
            }
        }
    }

}

/// Makes the vectors from real ledgers and real exports, then derives the damaged ones.
private struct VectorWriter {
    let folder = BundleVector.folder
    let key = SyncKey.generate()
    let passphrase = "vector passphrase: correct horse battery staple"

    func write() async throws {
        try? FileManager.default.removeItem(at: folder)  // the writer's format's set only
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let keyText = String(decoding: key.printableBytes().withUnsafeBytes { Array($0) }, as: UTF8.self)
            .trimmingCharacters(in: .newlines)
        let (a, b) = (try await TestLedger(), try await TestLedger())

        // Vault-1 at a: cleared records, then every kind of record and register, knowing b.
        try await a.ledger.record([try Fixture.minimalSend(hash: 1), try Fixture.minimalSend(hash: 2)])
        a.clock.advance(by: 1)
        try await a.ledger.clearHistory(vault: "vault-1")
        a.clock.advance(by: 1)
        try await a.ledger.record([try Fixture.send(status: .pending), try Fixture.swap(), try Fixture.signature()])
        try await a.ledger.updateStatus(
            try Fixture.send().id,
            to: .inferredFailure(reason: "dropped or replaced: nonce 7 was used by another transaction")
        )
        try await a.ledger.setNote(nil, for: try Fixture.send().id)
        try await a.ledger.setHidden(true, for: try Fixture.signature().id)
        // A send replaced by a speed-up that confirmed: `replaced_by` on the original.
        let original = try Fixture.minimalSend(hash: 5)
        let speedUp = try TransactionRecord(
            facts: try TransactionFacts(
                vaultId: original.vaultId,
                chain: original.chain,
                timestamp: original.timestamp,
                txHash: Fixture.evmHash(6),
                extras: ["replaces": Fixture.evmHash(5)],
                details: original.details
            )
        )
        try await a.ledger.record([original, speedUp])
        try await a.ledger.updateStatus(speedUp.id, to: .confirmed(block: 21_000_200))
        try await b.ledger.record(try Fixture.minimalSend(hash: 3))
        try await b.ledger.sync(to: a.ledger)
        try await a.ledger.sync(to: b.ledger)
        try await b.ledger.sync(to: a.ledger)
        b.clock.advance(by: 2)
        try await a.ledger.setLabels(["tax", "2025"], for: try Fixture.swap().id)
        // A dispute: a's word and then b's disagree on b's send; and the speed-up's outcome
        // as the chain's answer (crdt.md, "Outcomes the chain settles").
        let disputed = try Fixture.minimalSend(hash: 3)
        try await a.ledger.updateStatus(disputed.id, to: .confirmed(block: 21_000_100))
        try await a.ledger.sync(to: b.ledger)
        b.clock.advance(by: 1)
        try await b.ledger.updateStatus(disputed.id, to: .failed(reason: "reverted", block: 21_000_100))
        try await b.ledger.sync(to: a.ledger)
        try await a.ledger.updateStatus(speedUp.id, to: StatusUpdate.confirmed(block: 21_000_200).readOnChain)

        var vectors: [BundleVector] = []
        func add(
            _ name: String,
            _ comment: String,
            file: String,
            expect: String,
            key: Bool = true,
            secret: String? = nil,
            contents: BundleVector.Contents? = nil
        ) {
            vectors.append(
                BundleVector(
                    name: name,
                    comment: comment,
                    file: file,
                    syncKey: key ? (secret ?? keyText) : nil,
                    passphrase: key ? nil : (secret ?? passphrase),
                    expect: expect,
                    contents: contents
                )
            )
        }

        let full = try await export(a.ledger, "vault-1", to: "key-full.txb", secret: .syncKey(key), scope: .full)
        add(
            "key-full",
            "sync key; a full change set: a cleared record and one recorded again after the clear (both with their clear marks), knowledge of another replica, a send, a swap and a signature with every register, and a send replaced by its confirmed speed-up, whose outcome is the chain's answer, and a send whose outcome two devices dispute",
            file: "key-full.txb",
            expect: "ok",
            contents: full
        )
        let delta = try await export(
            a.ledger,
            "vault-1",
            to: "passphrase-delta.txb",
            secret: .passphrase(try Passphrase(passphrase)),
            scope: .forPeer(b.ledger.replicaID)
        )
        add(
            "passphrase-delta",
            "passphrase (Argon2id INTERACTIVE); a delta: the one record changed since the peer acknowledged",
            file: "passphrase-delta.txb",
            expect: "ok",
            key: false,
            contents: delta
        )

        let c = try await TestLedger()
        // 135,000 bytes: 3 chunks.
        let message = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 3000)
        try await c.ledger.record(try Fixture.signature(vault: "big", message: message))
        let multi = try await export(c.ledger, "big", to: "key-multichunk.txb", secret: .syncKey(key), scope: .full)
        add(
            "key-multichunk",
            "sync key; one record whose message spans three chunks",
            file: "key-multichunk.txb",
            expect: "ok",
            contents: multi
        )

        let wrongKey = String(
            decoding: SyncKey.generate().printableBytes().withUnsafeBytes { Array($0) },
            as: UTF8.self
        )
        .trimmingCharacters(in: .newlines)
        add(
            "key-wrong-key",
            "key-full.txb opened with another sync key",
            file: "key-full.txb",
            expect: "wrong_secret",
            secret: wrongKey
        )
        add(
            "passphrase-wrong",
            "passphrase-delta.txb opened with another passphrase",
            file: "passphrase-delta.txb",
            expect: "wrong_secret",
            key: false,
            secret: "vector passphrase: incorrect horse"
        )
        add(
            "kind-mismatch",
            "key-full.txb (sync key) opened with a passphrase",
            file: "key-full.txb",
            expect: "secret_kind_mismatch",
            key: false
        )

        let fullBytes = try bytes("key-full.txb")
        let multiBytes = try bytes("key-multichunk.txb")
        let chunk = BundleWriter.chunkSize + SecretStreamEncryptor.abytes
        try derive("header-tampered.txb", from: fullBytes) { $0[60] ^= 0x01 }
        add(
            "header-tampered",
            "key-full.txb with byte 60 (inside the secretstream header) flipped",
            file: "header-tampered.txb",
            expect: "header_tampered"
        )
        try derive("mac-tampered.txb", from: fullBytes) { $0[100] ^= 0x80 }
        add(
            "mac-tampered",
            "key-full.txb with byte 100 (inside the header MAC) flipped",
            file: "mac-tampered.txb",
            expect: "header_tampered"
        )
        try derive("unknown-version.txb", from: fullBytes) { $0[8] = BundleHeader.currentVersion + 1 }
        add(
            "unknown-version",
            "key-full.txb with format version \(BundleHeader.currentVersion + 1)",
            file: "unknown-version.txb",
            expect: "unsupported_version"
        )
        try derive("version-changed.txb", from: fullBytes) { $0[8] = 3 }
        add(
            "version-changed",
            "key-full.txb with its version byte changed to 3, a format readers know: the header MAC covers it",
            file: "version-changed.txb",
            expect: "header_tampered"
        )
        try derive("payload-tampered.txb", from: multiBytes) { $0[BundleHeader.size + chunk + 1000] ^= 0x04 }
        add(
            "payload-tampered",
            "key-multichunk.txb with one byte of chunk 1 flipped",
            file: "payload-tampered.txb",
            expect: "payload_tampered"
        )
        try derive("chunks-reordered.txb", from: multiBytes) { bytes in
            let (first, second) = (BundleHeader.size, BundleHeader.size + chunk)
            let chunk0 = Array(bytes[first..<second])
            let chunk1 = Array(bytes[second..<second + chunk])
            bytes.replaceSubrange(first..<second + chunk, with: chunk1 + chunk0)
        }
        add(
            "chunks-reordered",
            "key-multichunk.txb with chunks 0 and 1 swapped",
            file: "chunks-reordered.txb",
            expect: "payload_tampered"
        )
        try derive("truncated.txb", from: multiBytes) { $0.removeLast($0.count - (BundleHeader.size + 2 * chunk)) }
        add(
            "truncated",
            "key-multichunk.txb cut after chunk 1, at a chunk boundary",
            file: "truncated.txb",
            expect: "truncated"
        )
        try derive("truncated-in-chunk.txb", from: fullBytes) { $0.removeLast() }
        add(
            "truncated-in-chunk",
            "key-full.txb without its last byte: the final chunk no longer authenticates",
            file: "truncated-in-chunk.txb",
            expect: "payload_tampered"
        )
        try derive("truncated-header.txb", from: fullBytes) { $0.removeLast($0.count - 50) }
        add("truncated-header", "key-full.txb cut inside the header", file: "truncated-header.txb", expect: "truncated")
        try derive("not-a-bundle.txb", from: Array("PK\u{3}\u{4}".utf8) + [UInt8](repeating: 0x20, count: 200)) { _ in }
        add(
            "not-a-bundle",
            "a file that does not start with the magic bytes",
            file: "not-a-bundle.txb",
            expect: "not_a_bundle"
        )

        try sealExactChunk("full-final-chunk.txb")
        try derive("trailing-data.txb", from: try bytes("full-final-chunk.txb")) { $0.append(0x00) }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("full-final-chunk.txb"))
        add(
            "trailing-data",
            "a valid bundle whose final chunk is full-sized (65536 bytes of payload), followed by one byte",
            file: "trailing-data.txb",
            expect: "trailing_data"
        )

        try await sealMalformed("malformed-content.txb", from: a.ledger)
        add(
            "malformed-content",
            "authentic, but the send's amount is '1234567890.12345678901234567x'",
            file: "malformed-content.txb",
            expect: "malformed_content"
        )

        // Frames a writer never makes, each authentic: a reader refuses them, it repairs nothing.
        let stamp = Stamp(millis: 1_751_371_300_000, replica: ReplicaID(rawValue: 0x0A))
        let send = RecordState(recording: try Fixture.send(status: .failed(reason: "reverted")), stamp: stamp)
        let swap = RecordState(recording: try Fixture.swap(), stamp: stamp)
        func frame(
            _ file: String,
            _ state: RecordState,
            newer: [NewerField] = [],
            _ change: (inout RecordFields) -> Void = { _ in }
        ) throws {
            var fields = state.fields
            fields[.explorerUrl] = nil
            fields.newer = NewerFields(newer)
            change(&fields)
            var encoder = PayloadEncoder()
            encoder.encode(Self.header(vault: "vault-1"))
            encoder.encodeFrame(fields)
            try seal(file, encoder.bytes)
        }
        try frame("frame-field-of-another-kind.txb", swap) { $0[.amount] = .text("5") }
        add(
            "frame-field-of-another-kind",
            "authentic; a swap whose frame carries a send's amount (field 13)",
            file: "frame-field-of-another-kind.txb",
            expect: "malformed_content"
        )
        try frame("frame-half-stamp.txb", send) { $0[.terminalReplica] = nil }
        add(
            "frame-half-stamp",
            "authentic; a failed send whose terminal stamp has its time (44) but not its replica (45)",
            file: "frame-half-stamp.txb",
            expect: "malformed_content"
        )
        try frame("frame-value-without-stamp.txb", send) {
            $0[.noteTime] = nil
            $0[.noteReplica] = nil
        }
        add(
            "frame-value-without-stamp",
            "authentic; a note (47) without the note register's stamp (48, 49)",
            file: "frame-value-without-stamp.txb",
            expect: "malformed_content"
        )
        try frame(
            "frame-register-without-value.txb",
            RecordState(recording: try Fixture.send(hidden: true), stamp: stamp)
        ) { $0[.hidden] = nil }
        add(
            "frame-register-without-value",
            "authentic; a hidden register's stamp (54, 55) without its value (53)",
            file: "frame-register-without-value.txb",
            expect: "malformed_content"
        )
        try frame("frame-empty-text.txb", send) { $0[.memo] = .text("") }
        add(
            "frame-empty-text",
            "authentic; a memo (19) that is the empty text",
            file: "frame-empty-text.txb",
            expect: "malformed_content"
        )
        try frame("frame-default-explorer.txb", send) {
            $0[.explorerUrl] = .text(send.facts.value.explorerUrl!)
        }
        add(
            "frame-default-explorer",
            "authentic; explorer_url (5) written out although it is the chain's default page",
            file: "frame-default-explorer.txb",
            expect: "malformed_content"
        )

        // Labels are a set in NFC sorted by UTF-8 bytes: a frame with decomposed, repeated and
        // unsorted labels reads as that set.
        let labelled = RecordState(recording: try Fixture.send(labels: ["z"]), stamp: stamp)
        try frame("labels-normalized.txb", labelled) {
            $0[.labels] = .text(#"["z","e\u0301","\u00e9","a","a"]"#)
        }
        let normalized = RecordState(
            facts: labelled.facts,
            status: labelled.status,
            lastCheckedAt: labelled.lastCheckedAt,
            note: labelled.note,
            labels: Register(["a", "z", "\u{E9}"], stamp: stamp),
            hidden: labelled.hidden
        )
        add(
            "labels-normalized",
            "sync key; labels [z, e + U+0301, U+00E9, a, a] read as the set [a, z, U+00E9]",
            file: "labels-normalized.txb",
            expect: "ok",
            contents: BundleVector.Contents(Self.header(vault: "vault-1"), records: [normalized])
        )

        // A newer version's fields (bundle-format.md, "Newer fields"): read by wire type, kept.
        let newerStamp = Stamp(millis: 1_751_371_400_000, replica: ReplicaID(rawValue: 0x0C))
        let newer = [
            try NewerVersion.extended(send, registerStamp: newerStamp),
            try NewerVersion.extended(swap, registerStamp: newerStamp, fact: 300),
        ]
        var newerEncoder = PayloadEncoder()
        newerEncoder.encode(Self.header(vault: "vault-1"))
        for state in newer { newerEncoder.encode(state) }
        try seal("unknown-fields.txb", newerEncoder.bytes)
        add(
            "unknown-fields",
            "sync key; a failed send and a swap as a newer version writes them: facts 57 (varint) and 58 (stext), terminal value 2000 (ctext, the send only), and a register of block 6 (stamp 6000 and 6001, then a value of each wire type)",
            file: "unknown-fields.txb",
            expect: "ok",
            contents: BundleVector.Contents(Self.header(vault: "vault-1"), records: newer)
        )
        try frame(
            "frame-unknown-field-without-register.txb",
            send,
            newer: [NewerField(number: 5000, value: .varint(1))]
        )
        add(
            "frame-unknown-field-without-register",
            "authentic; a field of the hidden register's block (5000) on a record without a hidden stamp",
            file: "frame-unknown-field-without-register.txb",
            expect: "malformed_content"
        )
        try frame(
            "frame-unknown-register-without-stamp.txb",
            send,
            newer: [NewerField(number: 7002, value: .varint(1))]
        )
        add(
            "frame-unknown-register-without-stamp",
            "authentic; a value of register block 7 (7002) without the block's stamp (7000, 7001)",
            file: "frame-unknown-register-without-stamp.txb",
            expect: "malformed_content"
        )
        try sealUnknownWireType("frame-unknown-wire-type.txb", send)
        add(
            "frame-unknown-wire-type",
            "authentic; a frame that ends with a tag of wire type 6, which no format defines",
            file: "frame-unknown-wire-type.txb",
            expect: "malformed_content"
        )

        try sealEmptyFinalChunk("empty-final-chunk.txb")
        add(
            "empty-final-chunk",
            "a payload of exactly 65536 bytes written as a full TAG_MESSAGE chunk and an empty TAG_FINAL chunk",
            file: "empty-final-chunk.txb",
            expect: "malformed_content"
        )
        try sealMalformedThenTampered("malformed-then-tampered.txb")
        add(
            "malformed-then-tampered",
            "an invalid record in chunk 0 and a flipped byte in chunk 1: damage to the file is reported first",
            file: "malformed-then-tampered.txb",
            expect: "payload_tampered"
        )

        vectors += try RuleVectors(folder: folder, key: key, keyText: keyText, passphrase: passphrase).write()

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(vectors).write(to: folder.appendingPathComponent("index.json"))
    }

    private func export(
        _ ledger: Ledger,
        _ vault: String,
        to file: String,
        secret: BundleSecret,
        scope: ExportScope
    ) async throws -> BundleVector.Contents {
        try await ledger.exportBundle(
            vault: vault,
            to: folder.appendingPathComponent(file).path,
            secret: secret,
            scope: scope,
            passphraseCost: .interactive
        )
        let changes: ChangeSet =
            switch scope {
            case let .forPeer(peer): try await ledger.changes(vault: vault, forPeer: peer)
            default: try await ledger.changes(vault: vault)
            }
        return BundleVector.Contents(changes.header, records: changes.records)
    }

    private func bytes(_ file: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(file)))
    }

    private func derive(_ file: String, from bytes: [UInt8], _ change: (inout [UInt8]) -> Void) throws {
        var bytes = bytes
        change(&bytes)
        try Data(bytes).write(to: folder.appendingPathComponent(file))
    }

    /// A valid change set whose payload is exactly one chunk: a signature message sized to fit.
    private func sealExactChunk(_ file: String) throws {
        try seal(file, try Self.exactChunkPayload())
    }

    private static func exactChunkPayload() throws -> [UInt8] {
        var length = 60_000
        while true {
            let record = try Fixture.signature(vault: "exact", message: String(repeating: "x", count: length))
            var encoder = PayloadEncoder()
            encoder.encode(header(vault: "exact"))
            encoder.encode(
                RecordState(recording: record, stamp: Stamp(millis: 1_751_371_200_000, replica: ReplicaID(rawValue: 1)))
            )
            if encoder.bytes.count == BundleWriter.chunkSize { return encoder.bytes }
            length += BundleWriter.chunkSize - encoder.bytes.count
        }
    }

    static func header(vault: String) -> ChangeSetHeader {
        ChangeSetHeader(
            vaultId: vault,
            origin: ReplicaID(rawValue: 1),
            since: 0,
            through: 1,
            knowledge: [:],
            lineage: [],
            clearedThrough: nil
        )
    }

    private func seal(_ file: String, _ payload: [UInt8]) throws {
        let writer = try BundleWriter(
            path: folder.appendingPathComponent(file).path,
            secret: .syncKey(key),
            cost: .interactive
        )
        try writer.write(payload)
        _ = try writer.finish()
    }

    /// A payload of exactly one chunk, as `sealExactChunk` makes it, pushed as a full
    /// TAG_MESSAGE chunk followed by an empty TAG_FINAL chunk (which `BundleWriter` never does).
    private func sealEmptyFinalChunk(_ file: String) throws {
        let payload = try Self.exactChunkPayload()
        let bytes = try RuleVectors.sealed([(payload, SecretStreamTag.message), ([], SecretStreamTag.final)], key: key)
        try Data(bytes).write(to: folder.appendingPathComponent(file))
    }

    /// An invalid first record (a swap with an amount) in chunk 0, a long valid signature
    /// after it, and one byte of chunk 1 flipped.
    private func sealMalformedThenTampered(_ file: String) throws {
        var fields = RecordState(
            recording: try Fixture.swap(),
            stamp: Stamp(millis: 1_751_371_300_000, replica: ReplicaID(rawValue: 1))
        ).fields
        fields[.explorerUrl] = nil
        fields[.amount] = .text("5")
        var encoder = PayloadEncoder()
        encoder.encode(Self.header(vault: "vault-1"))
        encoder.encodeFrame(fields)
        let message = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 3000)
        encoder.encode(
            RecordState(
                recording: try Fixture.signature(message: message),
                stamp: Stamp(millis: 1_751_371_300_000, replica: ReplicaID(rawValue: 1))
            )
        )
        try seal(file, encoder.bytes)
        let chunk = BundleWriter.chunkSize + SecretStreamEncryptor.abytes
        try derive(file, from: try bytes(file)) { $0[BundleHeader.size + chunk + 1000] ^= 0x04 }
    }

    /// `state`'s frame with one more tag, of wire type 6, at its end.
    private func sealUnknownWireType(_ file: String, _ state: RecordState) throws {
        var encoder = PayloadEncoder()
        encoder.encode(Self.header(vault: "vault-1"))
        let headerEnd = encoder.bytes.count
        encoder.encode(state)
        var frame = FrameBytes(Array(encoder.bytes[headerEnd...]))
        let length = try frame.readUVarint()
        var payload = Array(encoder.bytes[..<headerEnd])
        payload.appendUVarint(length + 1)
        payload += encoder.bytes[(encoder.bytes.count - Int(length))...]
        payload.append(1 << 3 | 6)
        try seal(file, payload)
    }

    /// An authentic bundle whose record does not validate.
    private func sealMalformed(_ file: String, from ledger: Ledger) async throws {
        let state = try #require(try await ledger.state(try Fixture.send().id))
        let header = ChangeSetHeader(
            vaultId: "vault-1",
            origin: ledger.replicaID,
            since: 0,
            through: 1,
            knowledge: [:],
            clearedThrough: nil
        )
        var encoder = PayloadEncoder()
        encoder.encode(header)
        encoder.encode(state)
        // Same length, so the frame's length prefix stays right.
        let amount = Array("1234567890.123456789012345678".utf8)
        let bad = Array("1234567890.12345678901234567x".utf8)
        let range = try #require(encoder.bytes.firstRange(of: amount))
        var payload = encoder.bytes
        payload.replaceSubrange(range, with: bad)
        try seal(file, payload)
    }
}
