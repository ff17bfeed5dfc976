import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore
@testable import TxLedgerSodium
@testable import TxLedgerTestSupport

/// Bundles that decrypt and authenticate, because whoever wrote them holds the secret, but whose
/// content no honest replica writes. Each is refused with a clear error and the ledger left as
/// it was, or neutralised as Specs/threat-model.md says.
@Suite struct HostileBundleTests {
    let folder: TemporaryDirectory
    let source: TestLedger
    let target: TestLedger
    let secret = BundleSecret.syncKey(.generate())
    /// A stored send of the source (its stamps are real ones), to be bent into hostile shapes.
    let send: RecordState
    static let forger = ReplicaID(rawValue: 7)

    init() async throws {
        (folder, source, target) = (try TemporaryDirectory(), try await TestLedger(), try await TestLedger())
        let record = try Fixture.send(hash: 1)
        try await source.ledger.record(record)
        send = try #require(try await source.ledger.state(record.id))
        try await target.ledger.record(try Fixture.minimalSend(hash: 9999))
    }

    /// A sealed bundle of `records` under a header for `vault`.
    func bundle(
        _ records: [RecordState],
        vault: String = "vault-1",
        knowledge: [ReplicaID: Int64] = [:],
        clearedThrough: Stamp? = nil
    ) async throws -> String {
        var encoder = PayloadEncoder()
        encoder.encode(
            ChangeSetHeader(
                vaultId: vault,
                origin: Self.forger,
                since: 0,
                through: 1,
                knowledge: knowledge,
                clearedThrough: clearedThrough
            )
        )
        for record in records { encoder.encode(record) }
        return try await BundleFixture.seal(encoder.bytes, with: secret, in: folder)
    }

    /// Imports `path`, expecting `error`, and checks that the target did not change at all.
    func expectRefused<E: Error & Equatable>(
        _ path: String,
        _ error: E,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = try await ReplicaSnapshot(target.ledger)
        await #expect(throws: error, sourceLocation: sourceLocation) {
            try await target.ledger.importBundle(at: path, secret: secret)
        }
        #expect(
            try await ReplicaSnapshot(target.ledger) == before,
            "the ledger is unchanged",
            sourceLocation: sourceLocation
        )
    }

    @Test(arguments: [Int64(-1), Stamp.latestTime + 1, Int64.max])
    func absurdStampsAreRefused(time: Int64) async throws {
        var facts = send
        facts.facts = Register(send.facts.value, stamp: Stamp(time: time, replica: Self.forger))
        try await expectRefused(
            try await bundle([facts]),
            BundleError.malformedContent(
                "record 0: invalid facts stamp: stamp time \(time) is not between 1970 and 3000"
            )
        )

        var note = send
        note.note = Register("n", stamp: Stamp(time: time, replica: Self.forger))
        try await expectRefused(
            try await bundle([note]),
            BundleError.malformedContent(
                "record 0: invalid note stamp: stamp time \(time) is not between 1970 and 3000"
            )
        )

        try await expectRefused(
            try await bundle([send], clearedThrough: Stamp(time: time, replica: Self.forger)),
            BundleError.malformedContent(
                "invalid clear watermark: stamp time \(time) is not between 1970 and 3000"
            )
        )
    }

    @Test func anotherReplicasFileWithAnAbsurdWatermarkCannotBeMergedFrom() async throws {
        try await source.ledger.clearHistory(vault: "vault-1")
        try await source.ledger.database.pool.write { db in
            try db.execute(sql: "UPDATE vault SET cleared_time = -5, cleared_replica = 1")
        }
        await #expect(
            throws: LedgerError.invalidInput(
                field: "clear watermark",
                reason: "stamp time -5 is not between 1970 and 3000"
            )
        ) {
            try await target.ledger.merge(try await source.ledger.changes(vault: "vault-1"))
        }
    }

    @Test func aStampNearTheLimitCanBeEditedOverAndOneAtTheLimitIsAClearError() async throws {
        var late = send
        late.note = Register("from the year 2999", stamp: Stamp(time: Stamp.latestTime - 1, replica: Self.forger))
        late.labels = Register(["end of time"], stamp: Stamp(time: Stamp.latestTime, replica: Self.forger))
        let imported = try await target.ledger.importBundle(at: try await bundle([late]), secret: secret)
        #expect(imported.report.futureStamps == 2)
        try await target.ledger.setNote("mine", for: send.id)
        let note = try #require(try await target.ledger.state(send.id)?.note)
        #expect(note.value == "mine" && note.stamp.time == Stamp.latestTime)

        let before = try await ReplicaSnapshot(target.ledger)
        await #expect(
            throws: LedgerError.invalidInput(
                field: "stamp",
                reason:
                    "what this write replaces is stamped at the end of the stamp range (the year 3000) by replica \(Self.forger), so no later stamp exists"
            )
        ) {
            try await target.ledger.setLabels(["mine"], for: send.id)
        }
        #expect(try await ReplicaSnapshot(target.ledger) == before)
    }

    @Test func oneIdTwiceJoinsByStampAndOneStampWithTwoValuesJoinsByValueOrder() async throws {
        let later = try Fixture.send(hash: 1, at: Fixture.start.addingTimeInterval(60)).facts
        #expect(later.id == send.id && later != send.facts.value)
        var second = send
        second.facts = Register(later, stamp: Stamp(time: send.facts.stamp.time + 1, replica: Self.forger))

        // Two frames of one id with different stamps: the join of both, in either order.
        for order in [[send, second], [second, send]] {
            let ledger = try await TestLedger()
            try await ledger.ledger.importBundle(at: try await bundle(order), secret: secret)
            #expect(try await ledger.ledger.state(send.id) == send.joined(with: second))
            #expect(try await ledger.ledger.state(send.id)?.facts.value.timestamp == later.timestamp)
        }

        // Two frames of one id, one stamp, different facts (a forger, or a ledger file copied
        // to a second device): the greater tie-break key wins whatever the order, so every
        // replica keeps the same facts.
        var clash = second
        clash.facts = Register(later, stamp: send.facts.stamp)
        let winner =
            send.facts.value.tieBreakKey.lexicographicallyPrecedes(later.tieBreakKey) ? clash.facts : send.facts
        for order in [[send, clash], [clash, send]] {
            let ledger = try await TestLedger()
            try await ledger.ledger.importBundle(at: try await bundle(order), secret: secret)
            #expect(try await ledger.ledger.state(send.id)?.facts == winner)
        }

        // The same against a stored record, both ways round: a note under the stamp of the stored note.
        var noted = send
        noted.note = Register("the real note", stamp: Stamp(time: send.facts.stamp.time + 5, replica: Self.forger))
        var forged = noted
        forged.note = Register("a forged note", stamp: noted.note!.stamp)
        let kept =
            Optional("the real note").tieBreakKey.lexicographicallyPrecedes(Optional("a forged note").tieBreakKey)
            ? forged.note : noted.note
        for (first, then) in [(noted, forged), (forged, noted)] {
            let ledger = try await TestLedger()
            try await ledger.ledger.importBundle(at: try await bundle([first]), secret: secret)
            let report = try await ledger.ledger.importBundle(at: try await bundle([then]), secret: secret).report
            #expect(try await ledger.ledger.state(send.id)?.note == kept)
            #expect(report.conflicts.map(\.register) == ["note"])
        }
    }

    @Test func oneStampWithTwoFormsOfOneTextConvergesByteForByte() async throws {
        // A note and a failure reason each written in two Unicode forms (one code point for
        // the accent, or two) under one stamp: Swift's `==` calls the forms equal, their bytes
        // differ, and the greater tie-break key wins. Every replica must keep the same bytes,
        // whichever it held first (it kept its own when the merge took them as unchanged).
        let stamp = Stamp(time: send.facts.stamp.time + 5, replica: Self.forger)
        func state(_ accent: String) throws -> RecordState {
            var state = send
            state.note = Register("caf" + accent, stamp: stamp)
            state.status = StatusRegister(
                pending: nil,
                terminal: Register(try StatusUpdate(.failed, failureReason: "d" + accent + "j\u{E0} vu"), stamp: stamp),
                inferred: nil,
                rival: nil
            )
            return state
        }
        let (composed, decomposed) = (try state("\u{E9}"), try state("e\u{301}"))
        #expect(composed == decomposed)
        var kept: [(note: [UInt8], reason: [UInt8])] = []
        for (first, then) in [(composed, decomposed), (decomposed, composed)] {
            let ledger = try await TestLedger()
            try await ledger.ledger.importBundle(at: try await bundle([first]), secret: secret)
            try await ledger.ledger.importBundle(at: try await bundle([then]), secret: secret)
            let merged = try #require(try await ledger.ledger.state(send.id))
            kept.append(
                (
                    Array((merged.note?.value ?? "").utf8),
                    Array((merged.status.terminal?.value.failureReason ?? "").utf8)
                )
            )
        }
        #expect(kept[0].note == kept[1].note && kept[0].reason == kept[1].reason)
        #expect(kept[0].note == Array("caf\u{E9}".utf8))
    }

    @Test func aFileThatConflictsOnEveryRecordListsTheFirstConflictsAndCountsThemAll() async throws {
        // More records than a report lists, each with a note here and another in the file.
        let count = MergeConflict.maxListed + 5
        let ledger = try await TestLedger()
        _ = try await ledger.ledger.record(try (1...count).map { try Fixture.send(hash: $0, note: "ours") })
        let theirs = try (1...count).map {
            RecordState(
                recording: try Fixture.send(hash: $0, note: "theirs"),
                stamp: Stamp(millis: Date().millis + 60_000, counter: 0, replica: Self.forger)
            )
        }
        let report = try await ledger.ledger.importBundle(at: try await bundle(theirs), secret: secret).report
        #expect(report.recordsChanged == count)
        #expect(report.conflictCounts.note == count && report.conflictCounts.total == count)
        // The first ones merged, in the order the file holds them (two batches of 512).
        #expect(report.conflicts.map(\.id) == theirs.prefix(MergeConflict.maxListed).map(\.id))
        #expect(report.conflicts.allSatisfy { $0.register == "note" && $0.kept == "\"theirs\"" })
    }

    @Test func aBundleWritesOnlyTheVaultItNames() async throws {
        // The frame of a vault-1 record, sent under a header for vault "other": frames carry
        // no vault and no id, so it becomes a record of "other" with that vault's id.
        let before = try await target.ledger.list(HistoryFilter(vault: "vault-1"), limit: 100).items
        try await target.ledger.importBundle(at: try await bundle([send], vault: "other"), secret: secret)
        #expect(try await target.ledger.list(HistoryFilter(vault: "vault-1"), limit: 100).items == before)
        let landed = try await target.ledger.list(HistoryFilter(vault: "other"), limit: 100).items
        #expect(landed.count == 1 && landed[0].facts.vaultId == "other" && landed[0].id != send.id)
        #expect(landed[0].id == (try Fixture.send(vault: "other", hash: 1)).id)
    }

    @Test func forgedLengthsAndCountsAreRefusedByTheirLimits() async throws {
        var header = PayloadEncoder()
        header.encode(
            ChangeSetHeader(
                vaultId: "vault-1",
                origin: Self.forger,
                since: 0,
                through: 1,
                knowledge: [:],
                clearedThrough: nil
            )
        )
        let base = header.bytes
        func uvarint(_ value: UInt64) -> [UInt8] {
            var value = value
            var bytes: [UInt8] = []
            while value >= 0x80 {
                bytes.append(UInt8(value & 0x7F) | 0x80)
                value >>= 7
            }
            return bytes + [UInt8(value)]
        }
        // A frame length of 2^62, then a frame of 20 bytes whose tx_hash (field 4, a ctext) claims 2^40 bytes.
        try await expectRefused(
            try await BundleFixture.seal(base + uvarint(1 << 62) + [0], with: secret, in: folder),
            BundleError.malformedContent("a frame length \(UInt64(1) << 62) exceeds \(8 << 20)")
        )
        try await expectRefused(
            try await BundleFixture.seal(
                base + [20, 4 << 3 | 2] + uvarint(1 << 42) + Array(repeating: 0x61, count: 12),
                with: secret,
                in: folder
            ),
            BundleError.malformedContent("a text length \(UInt64(1) << 40) exceeds 20")
        )
        // A vault name whose length says 2^60 bytes, an epoch list of 2^50 entries, and a
        // knowledge list of 2^50 entries.
        try await expectRefused(
            try await BundleFixture.seal(uvarint(1 << 60) + [0x61], with: secret, in: folder),
            BundleError.malformedContent("a text length \(UInt64(1) << 60) exceeds 1024")
        )
        let vault = [7] + Array("vault-1".utf8) + [0, 0, 0, 0, 0, 0, 0, 7, 0, 1]
        try await expectRefused(
            try await BundleFixture.seal(vault + uvarint(1 << 50), with: secret, in: folder),
            BundleError.malformedContent("the epoch count \(UInt64(1) << 50) exceeds 65536")
        )
        try await expectRefused(
            try await BundleFixture.seal(vault + [0] + uvarint(1 << 50), with: secret, in: folder),
            BundleError.malformedContent("the knowledge count \(UInt64(1) << 50) exceeds 65536")
        )
    }

    @Test func aForgedClaimToHoldThisReplicasFutureChangesCannotHideThemFromLaterDeltas() async throws {
        try await target.ledger.importBundle(
            at: try await bundle([send], knowledge: [target.ledger.replicaID: Int64.max]),
            secret: secret
        )
        let later = try Fixture.minimalSend(hash: 2)
        try await target.ledger.record(later)
        let delta = try await target.ledger.changes(vault: "vault-1", forPeer: Self.forger)
        #expect(delta.records.map(\.id).contains(later.id), "the claim was capped at the changes this replica had made")
    }

    @Test func aBundleDamagedWhileItIsMergedRollsBackWhatWasMerged() async throws {
        // Enough records for several chunks and a progress report (every 1000 records).
        try await source.ledger.record(try (1...3000).map { try Fixture.minimalSend(hash: $0) })
        let path = folder.path("large.txb")
        try await source.ledger.exportBundle(vault: "vault-1", to: path, secret: secret, scope: .full)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let before = try await ReplicaSnapshot(target.ledger)
        // Someone with write access to the sync folder damages the last chunk in place once a
        // thousand records are merged (in the import's transaction, not committed).
        let damaged = LockedValue(false)
        let lastChunk = (size - BundleHeader.size - 1) / (BundleWriter.chunkSize + SecretStreamEncryptor.abytes)
        await #expect(throws: BundleError.payloadTampered(chunk: lastChunk)) {
            try await target.ledger.importBundle(at: path, secret: secret) { progress in
                guard progress.phase == .merging, !damaged.get() else { return }
                let file = FileHandle(forUpdatingAtPath: path)!
                try? file.seek(toOffset: UInt64(size - 20))
                file.write(Data([0xFF, 0xFF, 0xFF, 0xFF]))
                try? file.close()
                damaged.set(true)
            }
        }
        #expect(damaged.get(), "the file was damaged after records had been merged")
        #expect(try await ReplicaSnapshot(target.ledger) == before)
    }

    @Test func replayingAnOldBundleRegressesNothing() async throws {
        let old = folder.path("old.txb")
        try await source.ledger.record(try Fixture.minimalSend(hash: 2))
        try await source.ledger.exportBundle(vault: "vault-1", to: old, secret: secret, scope: .full)
        try await target.ledger.importBundle(at: old, secret: secret)

        // Later, here: a confirmation, a note, a label, a hidden record, then a clear and a new record.
        try await target.ledger.updateStatus(send.id, to: try StatusUpdate(.confirmed))
        try await target.ledger.setNote("paid the rent", for: send.id)
        try await target.ledger.setLabels(["rent"], for: send.id)
        try await target.ledger.setHidden(true, for: try Fixture.minimalSend(hash: 2).id)
        try await target.ledger.clearHistory(vault: "vault-1")
        try await target.ledger.record(try Fixture.minimalSend(hash: 3))
        let before = try await ReplicaSnapshot(target.ledger)

        let replayed = try await target.ledger.importBundle(at: old, secret: secret)
        #expect(replayed.report.recordsAdded == 0 && replayed.report.recordsChanged == 0)
        #expect(try await ReplicaSnapshot(target.ledger) == before)
    }
}
