import Foundation
import PropertyBased
@testable import TxLedger

/// A random history of operations on several replicas of one wallet, for the convergence laws.
struct ReplicaScenario: CustomStringConvertible {
    enum Delivery: CaseIterable { case dropped, once, twice }

    enum Operation {
        case record(replica: Int, tx: Int, status: TransactionStatus)
        case status(replica: Int, tx: Int, to: TransactionStatus)
        case note(replica: Int, tx: Int, text: String?)
        case labels(replica: Int, tx: Int, labels: [String])
        case hide(replica: Int, tx: Int, hidden: Bool)
        case clear(replica: Int, vault: String)
        case sync(from: Int, to: Int, full: Bool, delivery: Delivery)
        /// Delivers again a change set sent earlier (late, duplicated, out of order).
        case replay(to: Int, pick: Int)
        case tick(replica: Int, millis: Int)
    }

    /// Wall-clock offsets: in time, an hour behind, a year ahead, two minutes ahead, a day behind.
    static let skews: [TimeInterval] = [0, -3600, 365 * 86_400, 120, -86_400]

    let replicas: Int
    let operations: [Operation]

    var description: String { "\(replicas) replicas: \(operations)" }

    static func vault(of tx: Int) -> String { tx % 4 == 3 ? "savings" : "main" }

    static let generator = Generator<ReplicaScenario, Shrink.None<ReplicaScenario>>(run: { rng in
        let replicas = Int.random(in: 3...5, using: &rng)
        func replica() -> Int { Int.random(in: 0..<replicas, using: &rng) }
        func tx() -> Int { Int.random(in: 0..<8, using: &rng) }
        func status() -> TransactionStatus { TransactionStatus.allCases.randomElement(using: &rng)! }
        let count = Int.random(in: 10...40, using: &rng)
        let operations: [Operation] = (0..<count).map { _ in
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<22: .record(replica: replica(), tx: tx(), status: status())
            case 22..<34: .status(replica: replica(), tx: tx(), to: status())
            case 34..<41: .note(replica: replica(), tx: tx(), text: Bool.random(using: &rng) ? "n\(Int.random(in: 0..<3, using: &rng))" : nil)
            case 41..<46: .labels(replica: replica(), tx: tx(), labels: Array(["tax", "home", "work"].shuffled(using: &rng).prefix(Int.random(in: 0...2, using: &rng))))
            case 46..<51: .hide(replica: replica(), tx: tx(), hidden: Bool.random(using: &rng))
            case 51..<55: .clear(replica: replica(), vault: Bool.random(using: &rng) ? "main" : "savings")
            case 55..<85: .sync(from: replica(), to: replica(), full: Int.random(in: 0..<4, using: &rng) == 0,
                                delivery: Delivery.allCases.randomElement(using: &rng)!)
            case 85..<92: .replay(to: replica(), pick: Int.random(in: 0..<1000, using: &rng))
            default: .tick(replica: replica(), millis: Int.random(in: 1...5000, using: &rng))
            }
        }
        return ReplicaScenario(replicas: replicas, operations: operations)
    })
}

/// Runs a scenario on real ledger files and records what the laws need.
final class ScenarioRun {
    let ledgers: [TestLedger]
    /// Change sets produced so far, delivered or not.
    private(set) var sent: [(to: Int, changes: [ChangeSet])] = []
    /// Facts stamps of every local recording that wrote facts.
    private(set) var recorded: [(id: TransactionID, vault: String, stamp: Stamp)] = []
    /// Status regressions seen across merges that moved no watermark.
    private(set) var regressions: [String] = []

    init(_ scenario: ReplicaScenario) async throws {
        var ledgers: [TestLedger] = []
        for i in 0..<scenario.replicas {
            ledgers.append(try await TestLedger(clock: ManualClock(Fixture.start.addingTimeInterval(ReplicaScenario.skews[i]))))
        }
        self.ledgers = ledgers
    }

    static func transaction(_ tx: Int) throws -> TransactionRecord {
        try Fixture.minimalSend(vault: ReplicaScenario.vault(of: tx), hash: tx + 1)
    }

    func run(_ operations: [ReplicaScenario.Operation]) async throws {
        for operation in operations {
            try await apply(operation)
        }
    }

    /// Every replica sends its delta to every other: afterwards all must hold the same state.
    func finalRound() async throws {
        for to in ledgers.indices {
            for from in ledgers.indices where from != to {
                try await merge(try await changes(from: from, to: to, full: false), into: to)
            }
        }
    }

    private func apply(_ operation: ReplicaScenario.Operation) async throws {
        switch operation {
        case let .record(r, tx, status):
            let facts = try Self.transaction(tx).facts
            let update: StatusUpdate = switch status {
            case .confirmed: try .confirmed(at: Fixture.start)
            case .failed: try .failed(reason: "reverted")
            default: try StatusUpdate(status)
            }
            let (stored, outcome) = try await ledgers[r].ledger.record(try TransactionRecord(facts: facts, status: update))
            if outcome == .recorded, let stamp = try await ledgers[r].ledger.state(stored.id)?.facts.stamp {
                recorded.append((stored.id, facts.vaultId, stamp))
            }
        case let .status(r, tx, to):
            let update: StatusUpdate = to == .failed ? try .failed(reason: "dropped or replaced") : try StatusUpdate(to)
            try await ignoringNotFound { _ = try await self.ledgers[r].ledger.updateStatus(try Self.transaction(tx).id, to: update) }
        case let .note(r, tx, text):
            try await ignoringNotFound { try await self.ledgers[r].ledger.setNote(text, for: try Self.transaction(tx).id) }
        case let .labels(r, tx, labels):
            try await ignoringNotFound { try await self.ledgers[r].ledger.setLabels(labels, for: try Self.transaction(tx).id) }
        case let .hide(r, tx, hidden):
            try await ignoringNotFound { try await self.ledgers[r].ledger.setHidden(hidden, for: try Self.transaction(tx).id) }
        case let .clear(r, vault):
            try await ledgers[r].ledger.clearHistory(vault: vault)
        case let .sync(from, to, full, delivery):
            guard from != to else { return }
            let changes = try await changes(from: from, to: to, full: full)
            sent.append((to, changes))
            switch delivery {
            case .dropped: break
            case .once: try await merge(changes, into: to)
            case .twice:
                try await merge(changes, into: to)
                try await merge(changes, into: to)
            }
        case let .replay(to, pick):
            guard !sent.isEmpty else { return }
            try await merge(sent[pick % sent.count].changes, into: to)
        case let .tick(r, millis):
            ledgers[r].clock.advance(by: Double(millis) / 1000)
        }
    }

    private func changes(from: Int, to: Int, full: Bool) async throws -> [ChangeSet] {
        let source = ledgers[from].ledger
        var sets: [ChangeSet] = []
        for vault in try await source.vaults() {
            sets.append(try await source.changes(vault: vault, forPeer: full ? nil : ledgers[to].ledger.replicaID))
        }
        return sets
    }

    /// Merges and checks that no visible record's status went down, unless a clear moved.
    private func merge(_ changes: [ChangeSet], into to: Int) async throws {
        let ledger = ledgers[to].ledger
        let before = try await statusesAndWatermarks(ledger)
        try await ledger.merge(changes)
        let after = try await statusesAndWatermarks(ledger)
        guard before.watermarks == after.watermarks else { return }
        for (id, status) in before.statuses {
            if let now = after.statuses[id], now.rank < status.rank {
                regressions.append("\(id): \(status) -> \(now) on replica \(to)")
            }
        }
    }

    private func statusesAndWatermarks(_ ledger: Ledger) async throws -> (statuses: [TransactionID: TransactionStatus], watermarks: [String: Stamp?]) {
        let records = try await ledger.all()
        var watermarks: [String: Stamp?] = [:]
        for vault in try await ledger.vaults() {
            watermarks[vault] = try await ledger.read { store in try store.watermark(vault).stamp }
        }
        return (Dictionary(uniqueKeysWithValues: records.map { ($0.id, $0.status) }), watermarks)
    }

    private func ignoringNotFound(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch LedgerError.notFound {
            // The replica does not hold this transaction (yet, or any more): nothing to do.
        }
    }
}
