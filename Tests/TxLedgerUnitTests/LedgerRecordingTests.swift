import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

struct LedgerRecordingTests {
    @Test func everyFieldRoundTripsThroughTheStoreAndAReopen() async throws {
        let test = try await TestLedger()
        let records = [
            try Fixture.send(status: .failed(reason: "dropped or replaced")), try Fixture.swap(),
            try Fixture.signature(),
        ]
        for record in records {
            let (stored, outcome) = try await test.ledger.record(record)
            #expect(outcome == .recorded)
            #expect(stored == record)
            #expect(try await test.ledger.transaction(id: record.id) == record)
        }
        let reopened = try await test.reopened()
        for record in records {
            #expect(try await reopened.transaction(id: record.id) == record)
        }
        let send = try #require(try await reopened.transaction(id: records[0].id))
        #expect(send.facts.details == records[0].facts.details)
        if case let .send(details) = send.details {
            #expect(details.amount.string == "1234567890.123456789012345678")
        } else {
            Issue.record("expected a send")
        }
    }

    @Test func recordingTheSameTransactionTwiceKeepsOneRecord() async throws {
        let test = try await TestLedger()
        let first = try Fixture.send(note: "first")
        try await test.ledger.record(first)
        let stampBefore = try #require(try await test.ledger.state(first.id))

        let other = try Fixture.send(at: Fixture.start.addingTimeInterval(99))
        let again = try TransactionRecord(facts: other.facts, note: "second")
        #expect(again.id == first.id && again.facts != first.facts)
        let (stored, outcome) = try await test.ledger.record(again)
        #expect(outcome == .alreadyRecorded(statusAdvanced: false))
        #expect(stored == first)  // facts and annotations of the first recording are kept
        #expect(try await test.ledger.all().count == 1)
        #expect(try await test.ledger.state(first.id) == stampBefore)  // nothing was written
    }

    @Test func recordingAgainWithAHigherStatusAdvancesIt() async throws {
        let test = try await TestLedger()
        let record = try Fixture.minimalSend(hash: 1)
        try await test.ledger.record(record)
        let confirmed = try TransactionRecord(facts: record.facts, status: .confirmed(at: Fixture.start))
        #expect(try await test.ledger.record(confirmed).outcome == .alreadyRecorded(statusAdvanced: true))
        // A lower status recorded later never regresses it.
        let pending = try TransactionRecord(facts: record.facts, status: .pending)
        let (stored, outcome) = try await test.ledger.record(pending)
        #expect(outcome == .alreadyRecorded(statusAdvanced: false))
        #expect(stored.status == .confirmed)
        #expect(stored.confirmedAt == Fixture.start)
    }

    @Test func batchesCountWhatTheyDid() async throws {
        let test = try await TestLedger()
        let batch = try (1...200).map {
            try Fixture.minimalSend(hash: $0, at: Fixture.start.addingTimeInterval(Double($0)))
        }
        let summary = try await test.ledger.record(batch + [batch[0], batch[1]])
        #expect(summary == RecordSummary(recorded: 200, alreadyRecorded: 2, statusAdvanced: 0))
        #expect(try await test.ledger.all().count == 200)
    }

    /// A large call records its new records in slices while a worker encodes the next ones
    /// (`LedgerTransaction.recordNew`), and the rest one by one from the first record that is
    /// not simply new: the same records and counts as one call per record, with every token a
    /// text new to the file (entries numbered on the worker) and a stored record, a repeat
    /// and a replacement well inside later slices.
    @Test func aLargeCallRecordsWhatOneCallPerRecordRecords() async throws {
        func send(_ n: Int) throws -> TransactionRecord {
            let details = try SendDetails(
                toAddress: Fixture.evmAddress(n),
                amount: try DecimalAmount("1.5"),
                token: try Token(symbol: "T\(n)", decimals: 6)
            )
            return try TransactionRecord(
                facts: try TransactionFacts(
                    vaultId: n.isMultiple(of: 3) ? "vault-2" : "vault-1",
                    chain: Fixture.ethereum,
                    timestamp: Fixture.start.addingTimeInterval(Double(n)),
                    txHash: Fixture.evmHash(n),
                    details: .send(details)
                )
            )
        }
        let first = try (1...400).map(send)
        var second = try (401...850).map(send)
        second[200] = try TransactionRecord(facts: first[7].facts, status: .confirmed(at: Fixture.start))
        second[300] = second[299]
        second[390] = try Fixture.send(hash: 900)  // replaces another hash: may settle a replacement
        let calls = [first, second]

        let together = try await TestLedger()
        var summaries: [RecordSummary] = []
        for call in calls { summaries.append(try await together.ledger.record(call)) }
        let oneByOne = try await TestLedger()
        var expected: [RecordSummary] = []
        for call in calls {
            var summary = RecordSummary()
            for record in call {
                switch try await oneByOne.ledger.record(record).outcome {
                case .recorded: summary.recorded += 1
                case let .alreadyRecorded(advanced):
                    summary.alreadyRecorded += 1
                    if advanced { summary.statusAdvanced += 1 }
                }
            }
            expected.append(summary)
        }
        #expect(summaries == expected)
        #expect(expected[1] == RecordSummary(recorded: 448, alreadyRecorded: 2, statusAdvanced: 1))
        let held = try await oneByOne.ledger.all().sorted { $0.id.rawValue < $1.id.rawValue }
        #expect(held.count == 848)
        #expect(try await together.ledger.all().sorted { $0.id.rawValue < $1.id.rawValue } == held)
        #expect(try await together.reopened().all().sorted { $0.id.rawValue < $1.id.rawValue } == held)
    }

    @Test func appMetadataIsKeptWithEachRecord() async throws {
        let test = try await TestLedger()
        let records = [try Fixture.send(hash: 1), try Fixture.send(hash: 2), try Fixture.signature()]
        try await test.ledger.record(records)
        for record in records {
            #expect(try await test.reopened().transaction(id: record.id)?.app == record.app)
        }
    }

    @Test func statusMovesThroughTheLattice() async throws {
        let test = try await TestLedger()
        let record = try Fixture.minimalSend(hash: 1)
        try await test.ledger.record(record)

        let toPending = try await test.ledger.updateStatus(record.id, to: .pending)
        #expect(toPending.changed && toPending.previousStatus == .broadcasted && toPending.record.status == .pending)

        let confirmedAt = Fixture.start.addingTimeInterval(12.345)
        let toConfirmed = try await test.ledger.updateStatus(record.id, to: .confirmed(at: confirmedAt))
        #expect(toConfirmed.record.status == .confirmed && toConfirmed.record.confirmedAt == confirmedAt)

        let back = try await test.ledger.updateStatus(record.id, to: .pending)
        #expect(back.refusal == .wouldRegress(current: .confirmed))
        #expect(back.record.status == .confirmed)

        let same = try await test.ledger.updateStatus(record.id, to: .confirmed(at: confirmedAt))
        #expect(same.refusal == .alreadyAt(.confirmed))

        let failed = try await test.ledger.updateStatus(record.id, to: .failed(reason: "reorged out"))
        #expect(failed.changed && failed.record.status == .failed)
        #expect(failed.record.failureReason == "reorged out" && failed.record.confirmedAt == nil)

        #expect(try await test.reopened().transaction(id: record.id)?.status == .failed)
    }

    @Test func anUpdateOutOfRangeIsRefusedWhereItIsAppliedAndChangesNothing() async throws {
        let test = try await TestLedger()
        let record = try Fixture.minimalSend(hash: 1)
        try await test.ledger.record(record)
        let refused: [StatusUpdate] = [
            .confirmed(at: Date(timeIntervalSince1970: -1)), .confirmed(at: Date(millis: Date.maxMillis + 1)),
            .failed(reason: "bad\u{0}"), .failed(reason: String(repeating: "x", count: 4097)),
        ]
        for update in refused {
            await #expect(throws: LedgerError.self) { try await test.ledger.updateStatus(record.id, to: update) }
            #expect(throws: LedgerError.self) { try TransactionRecord(facts: record.facts, status: update) }
        }
        #expect(try await test.ledger.transaction(id: record.id) == record)
    }

    @Test func updatingAnUnknownRecordIsNotFound() async throws {
        let test = try await TestLedger()
        let id = try Fixture.minimalSend(hash: 9).id
        await #expect(throws: LedgerError.notFound(id.rawValue)) {
            try await test.ledger.updateStatus(id, to: .pending)
        }
        await #expect(throws: LedgerError.notFound(id.rawValue)) { try await test.ledger.setNote("x", for: id) }
    }

    @Test func annotationsAreIndependentRegisters() async throws {
        let test = try await TestLedger()
        let record = try Fixture.minimalSend(hash: 1)
        try await test.ledger.record(record)

        #expect(try await test.ledger.setNote("dinner", for: record.id).note == "dinner")
        #expect(try await test.ledger.setLabels(["tax", "food", "tax"], for: record.id).labels == ["food", "tax"])
        #expect(try await test.ledger.setHidden(true, for: record.id).hidden)
        #expect(try await test.ledger.list().items.isEmpty)
        #expect(try await test.ledger.list(HistoryFilter(includeHidden: true)).items.count == 1)
        #expect(try await test.ledger.setHidden(false, for: record.id).hidden == false)
        #expect(try await test.ledger.list().items.count == 1)

        let cleared = try await test.ledger.setNote(nil, for: record.id)
        #expect(cleared.note == nil && cleared.labels == ["food", "tax"])
        let state = try #require(try await test.ledger.state(record.id))
        #expect(state.note != nil)  // a cleared note is a written register (so the clear replicates)
    }

    @Test func writingTheSameAnnotationAgainWritesNothing() async throws {
        let test = try await TestLedger()
        let record = try Fixture.minimalSend(hash: 1)
        try await test.ledger.record(record)
        try await test.ledger.setNote("same", for: record.id)
        let before = try await test.ledger.state(record.id)
        try await test.ledger.setNote("same", for: record.id)
        try await test.ledger.setHidden(false, for: record.id)  // never hidden: nothing to write
        #expect(try await test.ledger.state(record.id) == before)
    }

    /// Runs a bad annotation write on a fully annotated record: it must fail naming `field`
    /// and leave the record exactly as it was.
    private func expectRefused(
        _ field: String,
        _ write: @Sendable (Ledger, TransactionID) async throws -> TransactionRecord
    ) async throws {
        let test = try await TestLedger()
        let record = try Fixture.send()
        try await test.ledger.record(record)
        let before = try await test.ledger.state(record.id)
        await #expect { try await write(test.ledger, record.id) } throws: { error in
            guard let failure = error as? LedgerError, failure.code == .invalidInput, let f = failure.field else {
                return false
            }
            return f == field
        }
        #expect(try await test.ledger.state(record.id) == before)
    }

    @Test func anOversizedNoteIsRefused() async throws {
        try await expectRefused("note") { try await $0.setNote(String(repeating: "x", count: 10_001), for: $1) }
    }

    @Test func aMultiLineLabelIsRefused() async throws {
        try await expectRefused("label") { try await $0.setLabels(["bad\nlabel"], for: $1) }
    }

    @Test func tooManyLabelsAreRefused() async throws {
        try await expectRefused("labels") { try await $0.setLabels((0...32).map { "l\($0)" }, for: $1) }
    }

    @Test func lookupByHashAcceptsAnySpelling() async throws {
        let test = try await TestLedger()
        let record = try Fixture.send()
        try await test.ledger.record(record)
        let hash = try #require(record.txHash)
        for spelling in [hash, hash.uppercased(), String(hash.dropFirst(2)), "0X" + hash.dropFirst(2).uppercased()] {
            #expect(try await test.ledger.resolve(spelling).id == record.id, "\(spelling)")
        }
        #expect(try await test.ledger.resolve(record.id.rawValue.uppercased()).id == record.id)
        await #expect(throws: LedgerError.notFound("0xfeed")) { try await test.ledger.resolve("0xfeed") }
    }

    @Test func aHashInTwoVaultsIsAmbiguousButTheVaultChainAndHashNameOne() async throws {
        let test = try await TestLedger()
        let a = try Fixture.minimalSend(vault: "a", hash: 5)
        let b = try Fixture.minimalSend(vault: "b", hash: 5)
        try await test.ledger.record([a, b])
        await #expect(throws: LedgerError.ambiguous(hash: Fixture.evmHash(5), ids: [a.id, b.id].sorted())) {
            try await test.ledger.resolve(Fixture.evmHash(5))
        }
        // A callback that has the vault, the chain and the hash finds the one it means, in any spelling.
        let hash = Fixture.evmHash(5)
        #expect(try await test.ledger.transaction(vault: "b", chain: Fixture.ethereum, hash: hash)?.id == b.id)
        #expect(
            try await test.ledger.transaction(
                vault: "a",
                chain: try Chain(parsing: "0x1"),
                hash: String(hash.dropFirst(2)).uppercased()
            )?.id == a.id
        )
        #expect(try await test.ledger.transaction(vault: "c", chain: Fixture.ethereum, hash: hash) == nil)
        #expect(try TransactionID.forTransaction(vault: "a", chain: Fixture.ethereum, hash: hash) == a.id)
        await #expect(throws: LedgerError.self) {
            try await test.ledger.transaction(vault: "a", chain: Fixture.ethereum, hash: "0xfeed")
        }
    }

    @Test func concurrentWritersLoseNothing() async throws {
        let test = try await TestLedger()
        let ledger = test.ledger
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<25 {
                        let record = try Fixture.minimalSend(hash: task * 100 + i)
                        try await ledger.record(record)
                        try await ledger.setNote("task \(task)", for: record.id)
                    }
                }
            }
            try await group.waitForAll()
        }
        let all = try await ledger.all()
        #expect(all.count == 200)
        #expect(all.allSatisfy { $0.note?.hasPrefix("task ") == true })
    }
}

extension LedgerRecordingTests {
    /// What a wallet has right after broadcast, in one call.
    @Test func aSendIsRecordedFromPlainValuesInOneCall() async throws {
        let test = try await TestLedger()
        let (record, outcome) = try await test.ledger.recordSend(
            vault: "main",
            chain: "0x1",
            hash: Fixture.evmHash(9).uppercased().replacingOccurrences(of: "0X", with: "0x"),
            from: Fixture.evmAddress(0xCAFE),
            to: Fixture.evmAddress(2),
            amount: .baseUnits("250000000000000000", decimals: 18),
            token: "ETH",
            fee: "0.000021",
            fiatValue: "812.40",
            memo: "rent",
            nonce: 7
        )
        #expect(outcome == .recorded)
        #expect(record.chain.id == "ethereum" && record.txHash == Fixture.evmHash(9) && record.nonce == 7)
        guard case let .send(send) = record.details else {
            Issue.record("not a send")
            return
        }
        #expect(send.amount.string == "0.250000000000000000" && send.amount.displayString == "0.25")
        #expect(send.token == (try Token(symbol: "ETH", decimals: 18)))
        #expect(send.feeEstimate?.string == "0.000021" && record.fiatValue?.string == "812.40" && send.memo == "rent")
        #expect(record.timestamp == test.clock.now)
        #expect(
            try await test.ledger.transaction(vault: "main", chain: Fixture.ethereum, hash: Fixture.evmHash(9))
                == record
        )
        // Again: the same record, nothing new.
        let again = try await test.ledger.recordSend(
            vault: "main",
            chain: "ethereum",
            hash: Fixture.evmHash(9),
            to: Fixture.evmAddress(2),
            amount: .decimal("0.25"),
            token: "ETH"
        )
        #expect(again.outcome == .alreadyRecorded(statusAdvanced: false))
        await #expect(
            throws: LedgerError.invalidInput(
                field: "amount",
                reason: "'1,5' is not a decimal amount (digits with an optional fraction, e.g. 12.5)"
            )
        ) {
            try await test.ledger.recordSend(
                vault: "main",
                chain: "ethereum",
                hash: Fixture.evmHash(8),
                to: Fixture.evmAddress(2),
                amount: .decimal("1,5"),
                token: "ETH"
            )
        }
    }
}
