import TxLedgerCore

/// The evaluation of Specs/devices.md ("Evaluation") over a set of operations closed under
/// ancestors: whether each operation is authorised where it stands (from its ancestors alone),
/// then which are effective in the whole set, and so the members, the removals and the
/// recovery identities. Ancestor sets are bit sets over a topological order; every
/// `members(anc(o))` is evaluated on a strictly smaller set, in that order. Only removals and
/// rotations can cut an operation off, and each is looked up by what it removes, so a log of
/// `n` operations takes about `n²` steps (a hostile log of 4096 operations cannot make it
/// take longer than that).
struct MembershipEvaluation {
    private let operations: [MembershipOperation]
    /// The positions of the removals of each device.
    private let removals: [DeviceID: [Int]]
    /// The positions of the operations that rotate the recovery secret.
    private let rotations: [Int]
    /// `ancestors[i]`: the bit set of `operations[i]`'s ancestors (itself excluded).
    private var ancestors: [BitSet] = []
    private var authorised: [Bool] = []
    /// `recovery(anc(o))` of each operation: what a rotation rotates away from.
    private var recoveryBefore: [[PublicIdentity]] = []
    private let firstRecovery: PublicIdentity

    init(operations unordered: [MembershipOperation], firstRecovery: PublicIdentity) {
        self.firstRecovery = firstRecovery
        let operations = Self.topologicalOrder(unordered)
        self.operations = operations
        var removals: [DeviceID: [Int]] = [:]
        for (position, operation) in operations.enumerated() {
            if case let .remove(device, _, _) = operation.change { removals[device, default: []].append(position) }
        }
        self.removals = removals
        rotations = operations.indices.filter { operations[$0].change.newRecovery != nil }
        let index = Dictionary(uniqueKeysWithValues: operations.enumerated().map { ($1.id, $0) })
        for operation in operations {
            var set = BitSet(count: operations.count)
            for parent in operation.parents {
                // Every parent is held (the log keeps operations whose parents are all there)
                // and comes earlier in the order.
                guard let parentIndex = index[parent] else { continue }
                set.insert(parentIndex)
                set.formUnion(ancestors[parentIndex])
            }
            ancestors.append(set)
            let view = evaluate(set)
            recoveryBefore.append(view.recovery)
            authorised.append(
                {
                    switch operation.author {
                    case let .device(identity): view.members[identity.deviceID]?.identity == identity
                    case let .recovery(identity): view.recovery.contains(identity)
                    }
                }()
            )
        }
    }

    /// What the whole set means.
    var result: Membership { evaluate(BitSet(count: operations.count, all: true)) }

    /// Operations parents first (Kahn's algorithm); roots, and the children each operation
    /// releases, in increasing id (the result does not depend on the order; the work does not
    /// either).
    private static func topologicalOrder(_ operations: [MembershipOperation]) -> [MembershipOperation] {
        let byID = Dictionary(uniqueKeysWithValues: operations.map { ($0.id, $0) })
        var waitingFor: [OperationID: Int] = [:]
        var children: [OperationID: [OperationID]] = [:]
        for operation in operations {
            let held = operation.parents.filter { byID[$0] != nil }
            waitingFor[operation.id] = held.count
            for parent in held { children[parent, default: []].append(operation.id) }
        }
        var ready = operations.filter { waitingFor[$0.id] == 0 }.map(\.id).sorted()
        var order: [MembershipOperation] = []
        var next = 0
        while next < ready.count {
            let id = ready[next]
            next += 1
            if let operation = byID[id] { order.append(operation) }
            for child in (children[id] ?? []).sorted() {
                waitingFor[child, default: 1] -= 1
                if waitingFor[child] == 0 { ready.append(child) }
            }
        }
        return order
    }

    /// Whether the authorised operation `r` cuts off `o` (Specs/devices.md): `r` had not seen
    /// `o`, and removes `o`'s signing device or rotates away from `o`'s recovery identity.
    private func cuts(_ r: Int, _ o: Int) -> Bool {
        guard r != o, authorised[r], !ancestors[r].contains(o) else { return false }
        switch operations[o].author {
        case let .device(identity):
            guard case let .remove(device, _, _) = operations[r].change else { return false }
            return device == identity.deviceID
        case let .recovery(identity):
            return operations[r].change.newRecovery != nil && recoveryBefore[r].contains(identity)
        }
    }

    /// Whether `o` is effective in `set`.
    private func isEffective(_ o: Int, in set: BitSet) -> Bool {
        guard authorised[o] else { return false }
        let candidates: [Int] =
            switch operations[o].author {
            case let .device(identity): removals[identity.deviceID] ?? []
            case .recovery: rotations
            }
        for r in candidates where set.contains(r) && cuts(r, o) {
            // Two devices removing each other at once both stay removed: a removal cut off by
            // the removal of its author holds if that removal's author is the device it removes.
            guard case let .remove(target, _, _) = operations[o].change,
                case let .device(cutter) = operations[r].author, cutter.deviceID == target
            else { return false }
        }
        return true
    }

    /// `members`, `removed` and `recovery` of the operations in `set`.
    private func evaluate(_ set: BitSet) -> Membership {
        var adds:
            [DeviceID: (operation: MembershipOperation, identity: PublicIdentity, name: String, replica: ReplicaID)] =
                [:]
        var renames: [DeviceID: [MembershipOperation]] = [:]
        var removed: [DeviceID: Membership.Removal] = [:]
        var effectiveRotations: [Int] = []
        for o in set where isEffective(o, in: set) {
            let operation = operations[o]
            switch operation.change {
            case let .add(identity, name, replica):
                let id = identity.deviceID
                if adds[id].map({ Self.precedes(operation, $0.operation) }) ?? true {
                    adds[id] = (operation, identity, name, replica)
                }
            case let .rename(device, _):
                renames[device, default: []].append(operation)
            case let .remove(device, cut, recovery):
                let remover: [DeviceID] =
                    if case let .device(identity) = operation.author { [identity.deviceID] } else { [] }
                if let earlier = removed[device] {
                    removed[device] = Membership.Removal(
                        cut: earlier.cut.time <= cut.time ? earlier.cut : cut,
                        removedBy: (earlier.removedBy + remover).sorted()
                    )
                } else {
                    removed[device] = Membership.Removal(cut: cut, removedBy: remover)
                }
                if recovery != nil { effectiveRotations.append(o) }
            case .rotateRecovery:
                effectiveRotations.append(o)
            }
        }
        var members: [DeviceID: Membership.Member] = [:]
        for (id, add) in adds where removed[id] == nil {
            let named = ([add.operation] + (renames[id] ?? [])).max { Self.precedes($0, $1) } ?? add.operation
            let name: String =
                switch named.change {
                case let .rename(_, name): name
                default: add.name
                }
            let addedBy: DeviceID? =
                if case let .device(identity) = add.operation.author { identity.deviceID } else { nil }
            members[id] = Membership.Member(
                identity: add.identity,
                name: name,
                replica: add.replica,
                addedBy: addedBy,
                addedAt: add.operation.time
            )
        }
        let latest = effectiveRotations.filter { r in
            !effectiveRotations.contains { $0 != r && ancestors[$0].contains(r) }
        }
        let recovery =
            latest.isEmpty
            ? [firstRecovery]
            : Set(latest.compactMap { operations[$0].change.newRecovery })
                .sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        return Membership(members: members, removed: removed, recovery: recovery)
    }

    /// Whether `a` orders before `b` by `(time, id)`.
    private static func precedes(_ a: MembershipOperation, _ b: MembershipOperation) -> Bool {
        (a.time, a.id) < (b.time, b.id)
    }
}

/// A set of small integers (operation positions), as 64-bit words.
struct BitSet: Sequence {
    private var words: [UInt64]

    init(count: Int, all: Bool = false) {
        words = Array(repeating: 0, count: (count + 63) / 64)
        if all { for index in 0..<count { insert(index) } }
    }

    func contains(_ index: Int) -> Bool { words[index / 64] >> UInt64(index % 64) & 1 == 1 }

    mutating func insert(_ index: Int) { words[index / 64] |= 1 << UInt64(index % 64) }

    mutating func formUnion(_ other: BitSet) {
        for index in words.indices { words[index] |= other.words[index] }
    }

    func makeIterator() -> some IteratorProtocol<Int> {
        words.indices.lazy.flatMap { word in
            (0..<64).lazy.filter { self.words[word] >> UInt64($0) & 1 == 1 }.map { word * 64 + $0 }
        }
        .makeIterator()
    }
}
