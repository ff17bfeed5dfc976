import TxLedgerCore

/// The evaluation of Specs/devices.md ("Evaluation") over a set of operations closed under
/// ancestors: whether each operation is authorised where it stands (from its ancestors alone),
/// on what authority (the adds or rotations that made its signer one), which removals and
/// rotations cut it off (directly, or by cutting off its authority: a device added by a device
/// its remover had not seen acts for that device), then which are effective in the whole set,
/// and so the members, the removals and the recovery identities. Ancestor sets are bit sets
/// over a topological order, and an operation's authority is found from its ancestors in that
/// order, looking only at the adds and removals of its signer (or the rotations); what each
/// removal or rotation cuts off is found once, when the later of the two arrives in that order.
struct MembershipEvaluation {
    private let operations: [MembershipOperation]
    /// The positions of the adds and of the removals of each device, and of the rotations.
    private let adds: [DeviceID: [Int]], removals: [DeviceID: [Int]], rotations: [Int]
    /// Of each operation, the device that signed it (-1: a recovery identity) and the device it
    /// removes (-1: not a removal), each device numbered: looked up in every pair.
    private let signers: [Int], removed: [Int]
    /// `ancestors[i]`: the bit set of `operations[i]`'s ancestors (itself excluded).
    private var ancestors: [BitSet] = []
    private var authorised: [Bool] = []
    /// `recovery(anc(r))` of each rotation `r`: what it rotates away from.
    private var recoveryBefore: [Int: [PublicIdentity]] = [:]
    /// `authority[i]`: what makes `operations[i]`'s signer one where it stands: the adds of its
    /// device effective in its ancestors, or the latest effective rotations to its recovery
    /// identity (none for the vault's first recovery identity).
    private var authority: [BitSet] = []
    /// `cutOff[i]`: what `operations[i]` cuts off, if it is an authorised removal or rotation.
    private var cutOff: [BitSet?] = []
    /// `blockers[i]`: the operations that cut `operations[i]` off and that it does not survive
    /// (all of them, but for a removal cut off by a removal it cuts off in turn); nil: none.
    /// `operations[i]`, if authorised, is effective in a set that holds none of them.
    private var blockers: [BitSet?] = []
    private let firstRecovery: PublicIdentity

    init(operations unordered: [MembershipOperation], firstRecovery: PublicIdentity) {
        self.firstRecovery = firstRecovery
        let operations = Self.topologicalOrder(unordered)
        self.operations = operations
        var adds: [DeviceID: [Int]] = [:]
        var removals: [DeviceID: [Int]] = [:]
        for (position, operation) in operations.enumerated() {
            switch operation.change {
            case let .add(identity, _, _): adds[identity.deviceID, default: []].append(position)
            case let .remove(device, _, _): removals[device, default: []].append(position)
            case .rename, .rotateRecovery: break
            }
        }
        (self.adds, self.removals) = (adds, removals)
        var numbers: [DeviceID: Int] = [:]
        func number(_ device: DeviceID) -> Int {
            if let known = numbers[device] { return known }
            numbers[device] = numbers.count
            return numbers.count - 1
        }
        signers = operations.map { if case let .device(identity) = $0.author { number(identity.deviceID) } else { -1 } }
        removed = operations.map { if case let .remove(device, _, _) = $0.change { number(device) } else { -1 } }
        rotations = operations.indices.filter { operations[$0].change.newRecovery != nil }
        let index = Dictionary(uniqueKeysWithValues: operations.enumerated().map { ($1.id, $0) })
        let empty = BitSet(count: operations.count)
        var cutters: [Int] = []
        for (position, operation) in operations.enumerated() {
            var set = empty
            for parent in operation.parents {
                // Every parent is held (the log keeps operations whose parents are all there)
                // and comes earlier in the order.
                guard let parentIndex = index[parent] else { continue }
                set.insert(parentIndex)
                set.formUnion(ancestors[parentIndex])
            }
            ancestors.append(set)
            blockers.append(nil)
            cutOff.append(nil)
            if operation.change.newRecovery != nil { recoveryBefore[position] = recovery(latestRotations(in: set)) }
            var signerAuthority = empty
            switch operation.author {
            case let .device(identity):
                for add in adds[identity.deviceID] ?? [] where set.contains(add) && isEffective(add, in: set) {
                    if case .add(identity, _, _) = operations[add].change { signerAuthority.insert(add) }
                }
                let isRemoved = (removals[identity.deviceID] ?? []).contains {
                    set.contains($0) && isEffective($0, in: set)
                }
                authorised.append(!signerAuthority.isEmpty && !isRemoved)
            case let .recovery(identity):
                let latest = latestRotations(in: set)
                authorised.append(recovery(latest).contains(identity))
                for rotation in latest where operations[rotation].change.newRecovery == identity {
                    signerAuthority.insert(rotation)
                }
            }
            authority.append(signerAuthority)
            // The earlier removals and rotations this one had not seen (and which had not seen
            // it), and this one, if it may cut, against the earlier operations it had not seen.
            let cutBy = cutters.filter { !set.contains($0) && cuts($0, position) }
            for r in cutBy { cutOff[r]?.insert(position) }
            var cut: [Int] = []
            if authorised[position], operation.change.cutsOff {
                cutOff[position] = empty
                for earlier in 0..<position where !set.contains(earlier) && cuts(position, earlier) {
                    cutOff[position]?.insert(earlier)
                    cut.append(earlier)
                }
                cutters.append(position)
            }
            for r in cutBy where !survives(position, r) { block(position, by: r) }
            for o in cut where !survives(o, position) { block(o, by: position) }
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

    /// Whether the authorised removal or rotation `r`, concurrent with `o` (neither had seen
    /// the other), cuts `o` off (Specs/devices.md): it removes `o`'s signing device or rotates
    /// away from `o`'s recovery identity, or it cuts off every operation of `o`'s authority
    /// (`cutOff[r]` holds what it cuts off among the operations before `o` in the order).
    private func cuts(_ r: Int, _ o: Int) -> Bool {
        let direct: Bool =
            switch operations[o].author {
            case .device: removed[r] >= 0 && removed[r] == signers[o]
            case let .recovery(identity): recoveryBefore[r]?.contains(identity) == true
            }
        guard !direct else { return true }
        guard let cut = cutOff[r], !authority[o].isEmpty else { return false }
        return authority[o].isSubset(of: cut)
    }

    /// Whether `o`, cut off by `r`, holds against it: two devices removing each other at once
    /// both stay removed, so a removal cut off by a removal it cuts off in turn (its author
    /// removed its remover, or a device whose authority its remover had not seen) holds, and
    /// so does one cut off by the device it removes.
    private func survives(_ o: Int, _ r: Int) -> Bool {
        guard removed[o] >= 0 else { return false }
        return signers[r] == removed[o] || cutOff[o]?.contains(r) == true
    }

    private mutating func block(_ o: Int, by r: Int) {
        if blockers[o] == nil { blockers[o] = BitSet(count: operations.count) }
        blockers[o]?.insert(r)
    }

    /// Whether `o` is effective in `set`.
    private func isEffective(_ o: Int, in set: BitSet) -> Bool {
        authorised[o] && blockers[o].map { !$0.intersects(set) } ?? true
    }

    /// The effective rotations of `set` that no other effective rotation of `set` descends from:
    /// what made its recovery identities.
    private func latestRotations(in set: BitSet) -> [Int] {
        let effective = rotations.filter { set.contains($0) && isEffective($0, in: set) }
        guard effective.count > 1 else { return effective }
        var earlier = BitSet(count: operations.count)
        for r in effective { earlier.formUnion(ancestors[r]) }
        return effective.filter { !earlier.contains($0) }
    }

    /// `recovery(S)` of a set whose latest effective rotations are `latest`.
    private func recovery(_ latest: [Int]) -> [PublicIdentity] {
        guard !latest.isEmpty else { return [firstRecovery] }
        return Set(latest.compactMap { operations[$0].change.newRecovery })
            .sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
    }

    /// `members`, `removed` and `recovery` of the operations in `set`.
    private func evaluate(_ set: BitSet) -> Membership {
        var adds:
            [DeviceID: (operation: MembershipOperation, identity: PublicIdentity, name: String, replica: ReplicaID)] =
                [:]
        var renames: [DeviceID: [MembershipOperation]] = [:]
        var removed: [DeviceID: Membership.Removal] = [:]
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
            case let .remove(device, cut, _):
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
            case .rotateRecovery:
                break
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
        let rotatedTo = rotations.filter { set.contains($0) && isEffective($0, in: set) }.compactMap {
            operations[$0].change.newRecovery
        }
        return Membership(
            members: members,
            removed: removed,
            recovery: recovery(latestRotations(in: set)),
            signers: Set(adds.values.map(\.identity) + rotatedTo + [firstRecovery])
        )
    }

    /// Whether `a` orders before `b` by `(time, id)`.
    private static func precedes(_ a: MembershipOperation, _ b: MembershipOperation) -> Bool {
        (a.time, a.id) < (b.time, b.id)
    }
}
