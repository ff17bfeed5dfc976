import TxLedgerCore
import TxLedgerSodium

/// A vault's membership log: a grow-only set of signed operations, merged by union, and what
/// it means, computed from the set alone (Specs/devices.md, "Evaluation"). Every device that
/// holds the same operations and the vault's first recovery identity finds the same members,
/// whatever order the operations came in.
public struct MembershipLog: Sendable {
    /// The vault's first recovery identity: what its shared secret derives, pinned by each
    /// device when it joins.
    public let firstRecovery: PublicIdentity
    public let vault: String
    /// The operations whose ancestors are all here, by id.
    public private(set) var operations: [OperationID: MembershipOperation] = [:]
    /// Operations waiting for a parent.
    private var waiting: [OperationID: MembershipOperation] = [:]

    /// The most operations a vault's log holds, waiting ones included.
    public static let maxOperations = 4096

    public init(vault: String, firstRecovery: PublicIdentity) {
        self.vault = vault
        self.firstRecovery = firstRecovery
    }

    /// Adds `operation` (and any waiting one it completes); one already held changes nothing.
    /// - Returns: whether the log gained an operation whose ancestors are all here.
    /// - Throws: `BundleError.malformedContent` for an operation of another vault, or one that
    ///   would take the log beyond `maxOperations`.
    @discardableResult
    public mutating func insert(_ operation: MembershipOperation) throws -> Bool {
        guard operation.vault == vault else {
            throw BundleError.malformedContent("a membership operation names another vault")
        }
        guard operations[operation.id] == nil, waiting[operation.id] == nil else { return false }
        guard operations.count + waiting.count < Self.maxOperations else {
            throw BundleError.malformedContent(
                "a vault's membership log holds at most \(Self.maxOperations) operations"
            )
        }
        waiting[operation.id] = operation
        let before = operations.count
        var progress = true
        while progress {
            progress = false
            for (id, waiter) in waiting where waiter.parents.allSatisfy({ operations[$0] != nil }) {
                operations[id] = waiter
                waiting[id] = nil
                progress = true
            }
        }
        return operations.count > before
    }

    /// The operations no other held operation has as a parent: what a new operation names.
    public var heads: Set<OperationID> {
        var heads = Set(operations.keys)
        for operation in operations.values { heads.subtract(operation.parents) }
        return heads
    }

    /// `BLAKE2b-256` of the held operations' ids in increasing order: equal for two logs that
    /// hold the same operations.
    public var digest: [UInt8] { Self.digest(of: Array(operations.keys)) }

    /// `BLAKE2b-256` of `ids` in increasing order: a log's digest.
    package static func digest(of ids: [OperationID]) -> [UInt8] {
        Sodium.genericHash(ids.sorted().flatMap(\.bytes), outputLength: 32)
    }

    /// Whether the log holds an operation that can cut others off (a removal or a rotation):
    /// until it does, every device an add names is a member.
    package var holdsCutters: Bool { operations.values.contains { $0.change.cutsOff } }

    /// Every identity an add of the log names, effective or not, in increasing order of bytes.
    public var addedIdentities: [PublicIdentity] {
        var identities: [DeviceID: PublicIdentity] = [:]
        for operation in operations.values {
            if case let .add(identity, _, _) = operation.change { identities[identity.deviceID] = identity }
        }
        return identities.values.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
    }

    /// The public identity of `device`, as an add of the log names it.
    public func identity(of device: DeviceID) -> PublicIdentity? {
        for operation in operations.values {
            if case let .add(identity, _, _) = operation.change, identity.deviceID == device { return identity }
        }
        return nil
    }

    /// How many operations wait for a parent.
    public var waitingCount: Int { waiting.count }

    /// What the log means.
    public func evaluate() -> Membership {
        MembershipEvaluation(operations: Array(operations.values), firstRecovery: firstRecovery).result
    }
}
