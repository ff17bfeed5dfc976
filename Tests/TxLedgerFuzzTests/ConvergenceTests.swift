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
            #expect(run.regressions.isEmpty, "\(run.regressions)")

            // Nothing recorded after the final clear of its vault is lost.
            let visibleIDs = Set(visible.map(\.id))
            for (id, vault, stamp, _, _) in run.recorded {
                let watermark = reference.vaults[vault]?.clearedThrough
                if watermark.map({ stamp > $0 }) ?? true {
                    #expect(
                        visibleIDs.contains(id),
                        "\(id) recorded at \(stamp) after the clear at \(String(describing: watermark)) was lost"
                    )
                }
            }
            // Nor is what a newer version wrote in fields this one does not know.
            for (id, vault, stamp, _, _) in run.newerWrites
            where reference.vaults[vault]?.clearedThrough.map({ stamp > $0 }) ?? true {
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
