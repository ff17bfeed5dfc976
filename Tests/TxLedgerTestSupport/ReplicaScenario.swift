import Foundation
import PropertyBased

@testable import TxLedger
@testable import TxLedgerBundle
@testable import TxLedgerCore

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
        /// Keeps a backup of the replica's file.
        case snapshot(replica: Int)
        /// Puts the replica's last backup back in place of its file (an iCloud or Time Machine
        /// restore): what it did since is gone from it.
        case restore(replica: Int)
        /// A new replica made from a copy of this one's file (a phone set up from another's
        /// backup), whose clock reads the same time: it shares the replica id and its epochs.
        case clone(replica: Int)
        /// The replica is lost (a broken phone): it never syncs again.
        case lose(replica: Int)
        /// A new, empty replica joins (a new device).
        case join
        /// A device on a newer version sends the replica a change of the record in fields this
        /// version does not know (bundle-format.md, "Newer fields"): `value` in a register of
        /// block 6 and, if the record is decided, in a terminal value field (2000) with the
        /// same outcome. The replica must keep them and pass them on.
        case newerWrite(replica: Int, tx: Int, value: Int)
    }

    /// At most this many replicas, clones and new devices included.
    static let maxReplicas = 6

    /// Wall-clock offsets: in time, an hour behind, a year ahead, two minutes ahead, a day behind.
    static let skews: [TimeInterval] = [0, -3600, 365 * 86_400, 120, -86_400]

    let replicas: Int
    let operations: [Operation]

    var description: String { "\(replicas) replicas: \(operations)" }

    static func vault(of tx: Int) -> String { tx % 4 == 3 ? "savings" : "main" }

    static let generator = generator(lifeEvents: false)

    /// Operations name replicas by a number that the run maps onto the replicas still in use;
    /// with `lifeEvents`, replicas are also backed up and restored, cloned, lost and added.
    static func generator(lifeEvents: Bool) -> Generator<ReplicaScenario, Shrink.None<ReplicaScenario>> {
        Generator(run: { rng in
            let replicas = Int.random(in: 3...5, using: &rng)
            func replica() -> Int { Int.random(in: 0..<maxReplicas, using: &rng) }
            func tx() -> Int { Int.random(in: 0..<8, using: &rng) }
            func status() -> TransactionStatus { TransactionStatus.allCases.randomElement(using: &rng)! }
            let count = Int.random(in: 10...40, using: &rng)
            func ordinary() -> Operation {
                switch Int.random(in: 0..<100, using: &rng) {
                case 0..<22: .record(replica: replica(), tx: tx(), status: status())
                case 22..<34: .status(replica: replica(), tx: tx(), to: status())
                case 34..<41:
                    .note(
                        replica: replica(),
                        tx: tx(),
                        text: Bool.random(using: &rng) ? "n\(Int.random(in: 0..<3, using: &rng))" : nil
                    )
                case 41..<46:
                    .labels(
                        replica: replica(),
                        tx: tx(),
                        labels: Array(
                            ["tax", "home", "work"].shuffled(using: &rng).prefix(Int.random(in: 0...2, using: &rng))
                        )
                    )
                case 46..<51: .hide(replica: replica(), tx: tx(), hidden: Bool.random(using: &rng))
                case 51..<55: .clear(replica: replica(), vault: Bool.random(using: &rng) ? "main" : "savings")
                case 55..<85:
                    .sync(
                        from: replica(),
                        to: replica(),
                        full: Int.random(in: 0..<4, using: &rng) == 0,
                        delivery: Delivery.allCases.randomElement(using: &rng)!
                    )
                case 85..<90: .replay(to: replica(), pick: Int.random(in: 0..<1000, using: &rng))
                case 90..<94: .newerWrite(replica: replica(), tx: tx(), value: Int.random(in: 0..<3, using: &rng))
                default: .tick(replica: replica(), millis: Int.random(in: 1...5000, using: &rng))
                }
            }
            /// A device's life: a backup, some syncs it takes part in, then the backup restored and
            /// new records made on it; or a copy, a loss, a new device.
            func lifeEvent() -> [Operation] {
                let r = replica()
                let peer = replica()
                switch Int.random(in: 0..<100, using: &rng) {
                case 0..<55:
                    let between = (0..<Int.random(in: 0...4, using: &rng)).map { _ in ordinary() }
                    let after = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                        Operation.record(replica: r, tx: tx(), status: status())
                    }
                    return [.snapshot(replica: r)] + between
                        + [
                            .record(replica: r, tx: tx(), status: status()),
                            .sync(from: r, to: peer, full: false, delivery: .once),
                            .sync(from: peer, to: r, full: false, delivery: .once), .restore(replica: r),
                        ] + after
                case 55..<75: return [.clone(replica: r)]
                case 75..<88: return [.lose(replica: r)]
                default: return [.join]
                }
            }
            let operations: [Operation] = (0..<count).flatMap { _ in
                lifeEvents && Int.random(in: 0..<100, using: &rng) < 15 ? lifeEvent() : [ordinary()]
            }
            return ReplicaScenario(replicas: replicas, operations: operations)
        })
    }
}

/// Runs a scenario on real ledger files and records what the laws need.
final class ScenarioRun {
    private(set) var ledgers: [TestLedger]
    /// Replicas lost: they take no part any more.
    private(set) var lost: Set<Int> = []
    /// The replicas still in use.
    var active: [Int] { ledgers.indices.filter { !lost.contains($0) } }
    private var snapshots: [Int: (copy: TestLedger, serial: Int)] = [:]
    /// Numbers `recorded` and `newerWrites` entries in order, so a restore can tell which
    /// came after its backup.
    private var serial = 0
    /// Change sets produced so far, delivered or not.
    private(set) var sent: [(to: Int, changes: [ChangeSet])] = []
    /// Facts stamps of every local recording that wrote facts, and the replica that made it;
    /// a restore or a loss takes out those that may have gone with the replica's file.
    private(set) var recorded: [(id: TransactionID, vault: String, stamp: Stamp, replica: Int, serial: Int)] = []
    /// Stamps of the newer version's writes, and the replica that received each (filtered as
    /// `recorded` is).
    private(set) var newerWrites: [(id: TransactionID, vault: String, stamp: Stamp, replica: Int, serial: Int)] = []
    /// What each clear had seen: per record visible on its replica when it cleared, the facts
    /// stamp it held (the survival law: only a clear that had seen a record's facts hides it);
    /// and whether it surely happened: a clear a restore or a loss may have taken with its
    /// replica (if it had not synced yet) may or may not hide anything.
    private(set) var clearsSeen:
        [(vault: String, facts: [TransactionID: Stamp], replica: Int, serial: Int, sure: Bool)] =
            []
    /// Status regressions seen across merges that moved no watermark.
    private(set) var regressions: [String] = []
    /// Every change set travels through a bundle: encoded, sealed, read and decoded.
    private let folder: TemporaryDirectory
    private let secret = BundleSecret.syncKey(.generate())
    /// The newer version's device: its changes so far and its latest stamp time.
    private static let newerDevice = ReplicaID(rawValue: 0x7E7E_0000_0000_0001)
    private static let newerEpoch = EpochID(rawValue: 0x7E7E)
    private var newerSeq: Int64 = 0, newerTime: Int64 = 0

    init(_ scenario: ReplicaScenario) async throws {
        var ledgers: [TestLedger] = []
        for i in 0..<scenario.replicas {
            ledgers.append(
                try await TestLedger(clock: ManualClock(Fixture.start.addingTimeInterval(ReplicaScenario.skews[i])))
            )
        }
        self.ledgers = ledgers
        folder = try TemporaryDirectory()
    }

    static func transaction(_ tx: Int) throws -> TransactionRecord {
        try Fixture.minimalSend(vault: ReplicaScenario.vault(of: tx), hash: tx + 1)
    }

    func run(_ operations: [ReplicaScenario.Operation]) async throws {
        for operation in operations {
            try await apply(operation)
        }
    }

    /// Three rounds in which the first replica in use and each other one exchange deltas, the
    /// first one sending first: afterwards all must hold the same state. Every change must
    /// travel in the deltas themselves: there is no third replica to relay what a wrong
    /// acknowledgment left out. (A copied or restored file notices in the first round and takes
    /// a new id; the second lets every replica say what it holds; the third delivers.)
    func finalRound() async throws {
        let hub = active[0]
        for _ in 0..<3 {
            for other in active.dropFirst() {
                try await merge(try await changes(from: hub, to: other, full: false), into: other)
                try await merge(try await changes(from: other, to: hub, full: false), into: hub)
            }
        }
    }

    /// Whether a clear had seen the facts stamped `facts` of `id` (or later ones): surely
    /// (`true`), perhaps (`nil`: only clears a restore or a loss may have taken away), or not.
    func aClearSaw(_ id: TransactionID, facts: Stamp) -> Bool? {
        let saw = clearsSeen.filter { $0.facts[id].map { $0 >= facts } ?? false }
        return saw.contains(where: \.sure) ? true : saw.isEmpty ? false : nil
    }

    /// The replica a scenario's replica number stands for: one still in use.
    private func slot(_ raw: Int) -> Int {
        active[raw % active.count]
    }

    private func apply(_ operation: ReplicaScenario.Operation) async throws {
        switch operation {
        case let .record(raw, tx, status):
            let r = slot(raw)
            let facts = try Self.transaction(tx).facts
            let update: StatusUpdate =
                switch status {
                case .confirmed: .confirmed(at: Fixture.start)
                case .failed: .failed(reason: "reverted")
                default: try StatusUpdate(status)
                }
            let (stored, outcome) = try await ledgers[r].ledger.record(
                try TransactionRecord(facts: facts, status: update)
            )
            if outcome == .recorded, let stamp = try await ledgers[r].ledger.state(stored.id)?.facts.stamp {
                recorded.append((stored.id, facts.vaultId, stamp, r, serial))
                serial += 1
            }
        case let .status(raw, tx, to):
            let r = slot(raw)
            // A failure written later is an inference, one recorded with the transaction a proof
            // (above), so that proofs and inferences meet in every order.
            let update: StatusUpdate =
                to == .failed ? .inferredFailure(reason: "dropped or replaced") : try StatusUpdate(to)
            try await ignoringNotFound {
                _ = try await self.ledgers[r].ledger.updateStatus(try Self.transaction(tx).id, to: update)
            }
        case let .note(raw, tx, text):
            let r = slot(raw)
            try await ignoringNotFound {
                try await self.ledgers[r].ledger.setNote(text, for: try Self.transaction(tx).id)
            }
        case let .labels(raw, tx, labels):
            let r = slot(raw)
            try await ignoringNotFound {
                try await self.ledgers[r].ledger.setLabels(labels, for: try Self.transaction(tx).id)
            }
        case let .hide(raw, tx, hidden):
            let r = slot(raw)
            try await ignoringNotFound {
                try await self.ledgers[r].ledger.setHidden(hidden, for: try Self.transaction(tx).id)
            }
        case let .clear(raw, vault):
            let ledger = ledgers[slot(raw)].ledger
            var seen: [TransactionID: Stamp] = [:]
            for record in try await ledger.all() where record.vaultId == vault {
                seen[record.id] = try await ledger.state(record.id)?.facts.stamp
            }
            clearsSeen.append((vault, seen, slot(raw), serial, true))
            serial += 1
            try await ledger.clearHistory(vault: vault)
        case let .sync(rawFrom, rawTo, full, delivery):
            let (from, to) = (slot(rawFrom), slot(rawTo))
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
        case let .replay(rawTo, pick):
            guard !sent.isEmpty else { return }
            try await merge(sent[pick % sent.count].changes, into: slot(rawTo))
        case let .tick(raw, millis):
            ledgers[slot(raw)].clock.advance(by: Double(millis) / 1000)
        case let .snapshot(raw):
            let r = slot(raw)
            snapshots[r] = (try await TestLedger(copyOf: ledgers[r].ledger, clock: ledgers[r].clock), serial)
        case let .restore(raw):
            let r = slot(raw)
            guard let (backup, since) = snapshots[r] else { return }
            ledgers[r] = try await TestLedger(copyOf: backup.ledger, clock: ledgers[r].clock)
            // What the replica recorded after the backup may be gone with it, unless it was sent.
            recorded.removeAll { $0.replica == r && $0.serial >= since }
            newerWrites.removeAll { $0.replica == r && $0.serial >= since }
            for index in clearsSeen.indices where clearsSeen[index].replica == r && clearsSeen[index].serial >= since {
                clearsSeen[index].sure = false
            }
        case let .clone(raw):
            guard ledgers.count < ReplicaScenario.maxReplicas else { return }
            let r = slot(raw)
            ledgers.append(try await TestLedger(copyOf: ledgers[r].ledger, clock: ManualClock(ledgers[r].clock.now)))
        case let .lose(raw):
            guard active.count > 2 else { return }
            let r = slot(raw)
            lost.insert(r)
            recorded.removeAll { $0.replica == r }
            newerWrites.removeAll { $0.replica == r }
            for index in clearsSeen.indices where clearsSeen[index].replica == r { clearsSeen[index].sure = false }
        case .join:
            guard ledgers.count < ReplicaScenario.maxReplicas else { return }
            ledgers.append(try await TestLedger(clock: ManualClock(Fixture.start)))
        case let .newerWrite(raw, tx, value):
            let r = slot(raw)
            let record = try Self.transaction(tx)
            guard var state = try await ledgers[r].ledger.state(record.id) else { return }
            let stamp = Stamp(time: max(newerTime, state.stamps.max()!.time) + 1, replica: Self.newerDevice)
            newerTime = stamp.time
            newerSeq += 1
            if let terminal = state.status.terminal {
                state.status = StatusRegister(
                    pending: state.status.pending,
                    terminal: Register(
                        terminal.value,
                        stamp: stamp,
                        newerFields: NewerFields([NewerField(number: 2000, value: .varint(UInt64(value)))])
                    )
                )
            }
            state.newerRegisters[RecordState.Block.firstNewer] = Register(
                NewerFields([NewerField(number: 6002, value: .varint(UInt64(value)))]),
                stamp: stamp
            )
            let header = ChangeSetHeader(
                vaultId: record.vaultId,
                origin: Self.newerDevice,
                since: newerSeq - 1,
                through: newerSeq,
                knowledge: [:],
                lineage: [Epoch(id: Self.newerEpoch, firstSeq: 1)],
                clearedThrough: nil
            )
            try await merge(
                [
                    try await BundleFixture.throughBundle(
                        ChangeSet(header: header, records: [state]),
                        with: secret,
                        in: folder
                    )
                ],
                into: r
            )
            newerWrites.append((record.id, record.vaultId, stamp, r, serial))
            serial += 1
        }
    }

    private func changes(from: Int, to: Int, full: Bool) async throws -> [ChangeSet] {
        let source = ledgers[from].ledger
        var sets: [ChangeSet] = []
        for vault in try await source.vaults() {
            let changes = try await source.changes(vault: vault, forPeer: full ? nil : ledgers[to].ledger.replicaID)
            sets.append(try await BundleFixture.throughBundle(changes, with: secret, in: folder))
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

    private func statusesAndWatermarks(
        _ ledger: Ledger
    ) async throws -> (statuses: [TransactionID: TransactionStatus], watermarks: [String: Stamp?]) {
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
        } catch let error as LedgerError where error.code == .notFound {
            // The replica does not hold this transaction (yet, or any more): nothing to do.
        }
    }
}
