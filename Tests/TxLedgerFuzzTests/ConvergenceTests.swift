import Foundation
import PropertyBased
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// The laws of the CRDT on real SQLite replicas: whatever the order, duplication or loss of
/// deliveries, and however skewed the clocks, replicas converge after a final exchange; and so
/// they do whatever happens to the devices: files restored from backups, copied to new phones,
/// lost, and devices added late (crdt.md, "Restored and cloned files").
struct ConvergenceTests {
    @Test func replicasConvergeWhateverTheDeliveries() async {
        await propertyCheck(count: 40, input: ReplicaScenario.generator) { scenario in
            await expectConvergence(scenario)
        }
    }

    @Test func replicasConvergeWhateverHappensToTheDevices() async {
        await propertyCheck(count: 40, input: ReplicaScenario.generator(lifeEvents: true)) { scenario in
            await expectConvergence(scenario)
        }
    }

    private func expectConvergence(_ scenario: ReplicaScenario) async {
        do {
            let run = try await ScenarioRun(scenario)
            try await run.run(scenario.operations)
            try await run.finalRound()

            let first = run.ledgers[run.active[0]].ledger
            let reference = try await ReplicaSnapshot(first)
            let visible = try await first.all()
            for other in run.active.dropFirst().map({ run.ledgers[$0] }) {
                #expect(try await ReplicaSnapshot(other.ledger) == reference)
                #expect(try await other.ledger.all() == visible)
            }
            for active in run.active {
                try await TabCountOracle.expectCountsOfListedRecords(run.ledgers[active].ledger)
            }
            #expect(run.regressions.isEmpty, "\(run.regressions)")

            // The survival law: no record recorded anywhere is lost, but by a clear that had
            // seen its facts; and then every device can restore it.
            let visibleIDs = Set(visible.map(\.id))
            var cleared: [String: Set<TransactionID>] = [:]
            for (id, vault, _, _, _) in run.recorded {
                guard let held = reference.vaults[vault]?.records.first(where: { $0.id == id }) else {
                    Issue.record("\(id) is held by no replica")
                    continue
                }
                switch run.aClearSaw(id, facts: held.facts.stamp) {
                case true?:
                    #expect(!visibleIDs.contains(id), "\(id) was cleared by a clear that had seen it, yet shows")
                    cleared[vault, default: []].insert(id)
                case nil:
                    // Only by a clear its replica's restore or loss may have taken away.
                    if !visibleIDs.contains(id) { cleared[vault, default: []].insert(id) }
                case false?:
                    #expect(
                        visibleIDs.contains(id),
                        "\(id) recorded at \(held.facts.stamp) was lost, and no clear had seen it"
                    )
                }
            }
            for ledger in run.active.map({ run.ledgers[$0].ledger }) {
                for (vault, ids) in cleared {
                    let restorable = Set(try await ledger.clearedRecords(vault: vault).map(\.record.id))
                    #expect(ids.isSubset(of: restorable), "cleared records a device cannot restore")
                }
            }
            // A restore is a write that reaches every device.
            if !cleared.isEmpty {
                for vault in cleared.keys { try await first.restoreCleared(vault: vault) }
                try await run.finalRound()
                for ledger in run.active.map({ run.ledgers[$0].ledger }) {
                    let shown = Set(try await ledger.all().map(\.id))
                    #expect(Set(run.recorded.map(\.id)).isSubset(of: shown), "a restored record is missing on a device")
                }
            }
            // Nor is what a newer version wrote in fields this one does not know.
            for (id, vault, stamp, _, _) in run.newerWrites
            where reference.vaults[vault]?.records.contains(where: { $0.id == id }) ?? false {
                let held = reference.vaults[vault]?.records.first { $0.id == id }?.newerRegisters[
                    RecordState.Block.firstNewer
                ]?.stamp
                #expect(held.map { $0 >= stamp } ?? false, "the newer version's write at \(stamp) to \(id) was lost")
            }
        } catch {
            Issue.record(error)
        }
    }

    @Test func mergeIsCommutativeAssociativeAndIdempotent() async {
        await propertyCheck(count: 25, input: ReplicaScenario.generator) { scenario in
            do {
                let run = try await ScenarioRun(scenario)
                try await run.run(scenario.operations)
                let (a, b, c) = (
                    try await full(run.ledgers[0].ledger), try await full(run.ledgers[1].ledger),
                    try await full(run.ledgers[2].ledger)
                )

                let abc = try await merged([a, b, c])
                #expect(try await merged([c, b, a]) == abc)  // any order
                #expect(try await merged([b, c, a]) == abc)
                let bc = try await TestLedger()  // (b ⊔ c) ⊔ a, through an intermediate replica
                try await bc.ledger.merge(b + c)
                #expect(try await merged([a, try await full(bc.ledger)]) == abc)

                let target = try await TestLedger()
                try await target.ledger.merge(a + b + c)
                let again = try await target.ledger.merge(a + b + c)  // idempotent
                #expect(!again.changedAnything)
                #expect(try await ReplicaSnapshot(target.ledger) == abc)
            } catch {
                Issue.record(error)
            }
        }
    }

    private func full(_ ledger: Ledger) async throws -> [ChangeSet] {
        var sets: [ChangeSet] = []
        for vault in try await ledger.vaults() { sets.append(try await ledger.changes(vault: vault)) }
        return sets
    }

    /// A fresh replica that merged `sources` one after the other.
    private func merged(_ sources: [[ChangeSet]]) async throws -> ReplicaSnapshot {
        let target = try await TestLedger()
        for source in sources { try await target.ledger.merge(source) }
        return try await ReplicaSnapshot(target.ledger)
    }
}
