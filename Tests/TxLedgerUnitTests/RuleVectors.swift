import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerSodium
@testable import TxLedgerTestSupport

/// The vectors of the rules a reader enforces on the header, the chunks and the change set's
/// epochs (Specs/bundle-format.md, "Reading" and "Change set header"): made with a set's sync
/// key and passphrase, by `VectorWriter` with a new set, or added to the format 4 set as it is
/// by `TXLEDGER_WRITE_VECTORS=rules swift test --filter addRuleVectors`.
struct RuleVectors {
    let folder: URL
    let key: SyncKey
    let keyText: String
    let passphrase: String

    /// Writes every rule vector's file into `folder` and gives their entries.
    func write() throws -> [BundleVector] {
        var vectors: [BundleVector] = []
        func add(_ name: String, _ comment: String, expect: String, passphrase: Bool = false, _ bytes: [UInt8]) throws {
            try Data(bytes).write(to: folder.appendingPathComponent(name + ".txb"))
            vectors.append(
                BundleVector(
                    name: name,
                    comment: comment,
                    file: name + ".txb",
                    syncKey: passphrase ? nil : keyText,
                    passphrase: passphrase ? self.passphrase : nil,
                    expect: expect
                )
            )
        }
        let payload = try Self.payload(since: 0, through: 1, lineage: [Epoch(id: EpochID(rawValue: 7), firstSeq: 1)])
        try add(
            "short-message-chunk",
            "the whole payload in one short chunk tagged MESSAGE, then the end of the file",
            expect: "malformed_content",
            try sealed([(payload, SecretStreamTag.message)])
        )
        try add(
            "push-tag-chunk",
            "the whole payload in one chunk tagged PUSH",
            expect: "malformed_content",
            try sealed([(payload, SecretStreamTag.push)])
        )
        try add(
            "rekey-tag-chunk",
            "the whole payload in one chunk tagged REKEY",
            expect: "malformed_content",
            try sealed([(payload, SecretStreamTag.rekey)])
        )
        try add("header-only", "a valid header and no chunk", expect: "truncated", try sealed([]))
        var cut = Array("TXLBUNDL".utf8) + [BundleHeader.currentVersion, KeyMode.passphrase.rawValue]
        cut.appendBigEndian(99, width: 4)
        cut += [0, 0, 0, 0, 0, 1]
        try add(
            "truncated-header-bad-kdf",
            "a passphrase header cut after 20 bytes whose opslimit (99) is beyond the bounds",
            expect: "unsupported_version",
            passphrase: true,
            cut
        )
        let epochs: [(String, String, Int64, Int64, [(Int64, Int64)])] = [
            ("epochs-first-zero", "one epoch whose first change is 0", 0, 1, [(7, 0)]),
            ("epochs-repeated-id", "a delta whose two epochs have one id", 3, 5, [(7, 1), (7, 4)]),
            ("epochs-without-changes", "an epoch in a change set of no change (through 0)", 0, 0, [(7, 1)]),
            ("epochs-not-holding-since", "a delta from 3 whose first epoch starts at 4", 3, 9, [(7, 4), (8, 6)]),
            (
                "epochs-after-since", "a delta from 3 whose second epoch starts at 3: the first does not hold it", 3, 9,
                [(7, 1), (8, 3)]
            ),
            ("epochs-full-with-two", "a full change set listing two epochs", 0, 9, [(7, 1), (8, 5)]),
            ("epochs-after-through", "a delta through 3 whose last epoch starts at 5", 2, 3, [(7, 1), (8, 5)]),
        ]
        for (name, comment, since, through, lineage) in epochs {
            let lineage = lineage.map { Epoch(id: EpochID(rawValue: $0.0), firstSeq: $0.1) }
            try add(
                name,
                comment,
                expect: "malformed_content",
                try sealed([(Self.payload(since: since, through: through, lineage: lineage), SecretStreamTag.final)])
            )
        }
        // Frames a writer never makes, each breaking one rule of "Record frames".
        let stamp = Stamp(millis: 1_751_371_200_000, replica: ReplicaID(rawValue: 1))
        let confirmed = RecordState(
            recording: try Fixture.send(vault: "rules", status: .confirmed(block: 7)),
            stamp: stamp
        )
        let frames: [(String, String, RecordFields)] = [
            (
                "frame-swap-without-to-chain", "a swap without to_chain (a frame carries both chains of a swap)",
                edited(RecordState(recording: try Fixture.swap(vault: "rules"), stamp: stamp)) { $0[.toChain] = nil }
            ),
            (
                "frame-send-without-token", "a send without token_symbol",
                edited(RecordState(recording: try Fixture.send(vault: "rules"), stamp: stamp)) {
                    $0[.tokenSymbol] = nil
                }
            ),
            (
                "frame-status-not-lowercase", "terminal_status CONFIRMED (a writer writes it in lowercase, as kind)",
                edited(confirmed) { $0[.terminalStatus] = .text("CONFIRMED") }
            ),
            (
                "frame-block-without-terminal", "block_number without the terminal register's stamp",
                edited(RecordState(recording: try Fixture.send(vault: "rules"), stamp: stamp)) {
                    $0[.blockNumber] = .integer(7)
                }
            ),
            (
                "frame-inferred-without-reason", "the inferred register's stamp without inferred_reason",
                edited(RecordState(recording: try Fixture.send(vault: "rules"), stamp: stamp)) {
                    $0[.inferredTime] = .integer(stamp.time)
                    $0[.inferredReplica] = .integer(1)
                }
            ),
            (
                "frame-spends-off-utxo", "spends on an ethereum send (outputs are a bitcoin-like chain's)",
                edited(RecordState(recording: try Fixture.send(vault: "rules"), stamp: stamp)) {
                    $0[.spends] = .text(String(repeating: "ab", count: 32) + ":0")
                }
            ),
            (
                "frame-spends-output-too-large", "a bitcoin send spending output 4294967296",
                edited(RecordState(recording: try Fixture.send(vault: "rules"), stamp: stamp)) {
                    $0[.chain] = .text("bitcoin")
                    $0[.txHash] = .text(String(repeating: "cd", count: 32))
                    $0[.explorerUrl] = nil
                    $0[.replaces] = nil
                    $0[.spends] = .text(String(repeating: "ab", count: 32) + ":4294967296")
                }
            ),
            (
                "frame-cleared-without-through",
                "the clear register's stamp without the facts stamp it cleared through",
                edited(RecordState(recording: try Fixture.send(vault: "rules"), stamp: stamp)) {
                    $0[.clearedTime] = .integer(stamp.time)
                    $0[.clearedReplica] = .integer(1)
                }
            ),
            (
                "frame-newer-stamp-wrong-wire", "a newer register (block 6) whose stamp time is a varint",
                edited(RecordState(recording: try Fixture.send(vault: "rules"), stamp: stamp)) {
                    $0.newer = NewerFields([
                        NewerField(number: 6000, value: .varint(UInt64(stamp.time))),
                        NewerField(number: 6001, value: .replica(ReplicaID(rawValue: 1))),
                    ])
                }
            ),
        ]
        for (name, comment, fields) in frames {
            var encoder = PayloadEncoder()
            encoder.encode(
                ChangeSetHeader(
                    vaultId: "rules",
                    origin: ReplicaID(rawValue: 1),
                    since: 0,
                    through: 1,
                    knowledge: [:],
                    lineage: [Epoch(id: EpochID(rawValue: 7), firstSeq: 1)],
                    clearedThrough: nil
                )
            )
            encoder.encodeFrame(fields)
            try add(name, comment, expect: "malformed_content", try sealed([(encoder.bytes, SecretStreamTag.final)]))
        }
        return vectors
    }

    /// `state`'s fields, changed.
    private func edited(_ state: RecordState, _ change: (inout RecordFields) -> Void) -> RecordFields {
        var fields = state.fields
        change(&fields)
        return fields
    }

    /// A change set header of vault `rules` and no record.
    static func payload(since: Int64, through: Int64, lineage: [Epoch]) throws -> [UInt8] {
        var encoder = PayloadEncoder()
        encoder.encode(
            ChangeSetHeader(
                vaultId: "rules",
                origin: ReplicaID(rawValue: 1),
                since: since,
                through: through,
                knowledge: [:],
                lineage: lineage,
                clearedThrough: nil
            )
        )
        return encoder.bytes
    }

    private func sealed(_ messages: [([UInt8], UInt8)]) throws -> [UInt8] {
        try Self.sealed(messages, key: key)
    }

    /// A format 4 header sealed with `key`, then each message pushed with its tag (as
    /// `BundleWriter` never does when the tags or sizes break its rules).
    static func sealed(_ messages: [([UInt8], UInt8)], key: SyncKey) throws -> [UInt8] {
        let salt = Sodium.randomBytes(BundleHeader.saltBytes)
        let keys = try BundleKeys(secret: .syncKey(key), salt: salt, cost: nil)
        let encryptor = SecretStreamEncryptor(key: keys.streamKey)
        var bytes = keys.seal(
            version: BundleHeader.currentVersion,
            mode: .syncKey,
            cost: nil,
            salt: salt,
            streamHeader: encryptor.header
        ).bytes
        for (message, tag) in messages {
            message.withUnsafeBytes { encryptor.push($0, tag: tag, into: &bytes) }
        }
        return bytes
    }
}

struct RuleVectorTests {
    /// Adds the rule vectors to the writers' format's set as it is (its key and passphrase), replacing
    /// any earlier ones of the same names.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TXLEDGER_WRITE_VECTORS"] == "rules"))
    func addRuleVectors() throws {
        let index = BundleVector.folder.appendingPathComponent("index.json")
        var vectors = try JSONDecoder().decode([BundleVector].self, from: Data(contentsOf: index))
        let keyText = try #require(vectors.first { $0.name == "key-full" }?.syncKey)
        let passphrase = try #require(vectors.first { $0.name == "passphrase-delta" }?.passphrase)
        let rules = try RuleVectors(
            folder: BundleVector.folder,
            key: SyncKey(printable: keyText),
            keyText: keyText,
            passphrase: passphrase
        ).write()
        vectors.removeAll { vector in rules.contains { $0.name == vector.name } }
        vectors += rules
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(vectors).write(to: index)
    }
}
