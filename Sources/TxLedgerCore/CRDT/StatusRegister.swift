import Foundation

/// The status of a record as a join-semilattice made of three last-writer-wins registers:
///
/// - `pending`: the stamp of the write that marked the record pending (absent: never pending);
/// - `terminal`: the proven confirmed-or-failed outcome with its metadata (absent: none proven);
/// - `inferred`: the reason of a failure inferred rather than observed, e.g. "dropped or
///   replaced" from a used nonce (absent: none inferred).
///
/// The visible status is the proven outcome if there is one, else `failed` if a failure was
/// inferred, else `pending` if it was ever marked pending, else `broadcasted`. So proof beats
/// inference whatever the stamps, the join of two states shows the higher rank, and between a
/// proven `confirmed` and `failed` the later stamp wins, with its metadata. Every part joins
/// by "greater stamp wins", which keeps the laws trivially true and lets a per-stamp filter (a
/// vault clear) commute with the join.
///
/// The terminal register orders its claims by whether the chain said them (a status check's
/// answer outranks every device's word, whatever the stamps), then by stamp; beside its winner
/// it keeps its **rival**, the greatest claim that disagrees with the winner (`disputedPart`),
/// so that every device knows the same dispute (Specs/crdt.md, "Outcomes the chain settles").
package struct StatusRegister: Hashable, Sendable {
    package let pending: Stamp?
    package let terminal: Register<StatusUpdate>?
    package var inferred: Register<String>? { inferredOutOfLine?.value }
    /// The greatest terminal claim that disagrees with `terminal`, as its `disputedPart`.
    package var rival: Register<StatusUpdate>? { rivalOutOfLine?.value }
    // The two rare parts (a failure inferred, a dispute) out of line: a record moves through a
    // load's threads several times, and these were 120 of its 280 bytes.
    private let inferredOutOfLine: OutOfLine<Register<String>>?
    private let rivalOutOfLine: OutOfLine<Register<StatusUpdate>>?

    init(
        pending: Stamp? = nil,
        terminal: Register<StatusUpdate>? = nil,
        inferred: Register<String>? = nil,
        rival: Register<StatusUpdate>? = nil
    ) {
        self.pending = pending
        self.terminal = terminal
        inferredOutOfLine = inferred.map(OutOfLine.init)
        rivalOutOfLine = terminal == nil ? nil : rival.map(OutOfLine.init)
    }

    /// Whether devices' words disagree on the outcome and no chain answer settled it: the
    /// next status check asks the chain.
    package var isDisputed: Bool { rival != nil && terminal?.value.checkedOnChain == false }

    package var status: TransactionStatus {
        terminal?.value.status ?? (inferred != nil ? .failed : pending == nil ? .broadcasted : .pending)
    }

    /// How the visible terminal status was learned; `nil` while the status is not terminal.
    package var evidence: StatusEvidence? {
        terminal != nil ? .proof : inferred != nil ? .inference : nil
    }

    /// The visible status with its metadata, as the update that would set it.
    var update: StatusUpdate {
        if let outcome = terminal?.value { return outcome }
        if let inferred { return StatusUpdate(checked: .failed, failureReason: inferred.value, evidence: .inference) }
        return pending == nil ? .broadcasted : .pending
    }

    /// The stamps a status write replaces (a new write is stamped after each).
    package var stamps: [Stamp] {
        var stamps: [Stamp] = []
        forEachStamp { stamps.append($0) }
        return stamps
    }

    /// Calls `body` with each stamp of `stamps`, without making the array (a merge looks at
    /// every received record's stamps) nor copying a register (a copy retains its value's).
    package func forEachStamp(_ body: (Stamp) -> Void) {
        if let pending { body(pending) }
        if let stamp = terminal?.stamp { body(stamp) }
        if let stamp = inferred?.stamp { body(stamp) }
        if let stamp = rival?.stamp { body(stamp) }
    }

    func joined(with other: StatusRegister) -> StatusRegister {
        let (terminal, rival) = Self.claims(terminal, rival, joinedWith: other.terminal, other.rival)
        return StatusRegister(
            pending: [pending, other.pending].compactMap { $0 }.max(),
            terminal: terminal,
            inferred: inferred.joined(with: other.inferred),
            rival: rival
        )
    }

    /// The greater of two terminal claims: the chain's answer over a device's word, then the
    /// register's order (stamp, then value).
    static func greater(_ a: Register<StatusUpdate>?, _ b: Register<StatusUpdate>?) -> Register<StatusUpdate>? {
        guard let a else { return b }
        guard let b else { return a }
        if a.value.checkedOnChain != b.value.checkedOnChain { return a.value.checkedOnChain ? a : b }
        return a.joined(with: b)
    }

    /// The winner and rival of two sets of claims, each given as its winner and rival: the
    /// greater winner, and the greatest claim of either set that disagrees with it. A set's
    /// winner that disagrees is its greatest such claim; else its rival is.
    static func claims(
        _ winner: Register<StatusUpdate>?,
        _ rival: Register<StatusUpdate>?,
        joinedWith otherWinner: Register<StatusUpdate>?,
        _ otherRival: Register<StatusUpdate>?
    ) -> (winner: Register<StatusUpdate>?, rival: Register<StatusUpdate>?) {
        guard let joined = greater(winner, otherWinner) else { return (nil, nil) }
        func disagreeing(_ winner: Register<StatusUpdate>?, _ rival: Register<StatusUpdate>?) -> Register<StatusUpdate>?
        {
            guard let winner else { return nil }
            return winner.value.agrees(with: joined.value) ? rival : winner.disputedPart
        }
        return (joined, greater(disagreeing(winner, rival), disagreeing(otherWinner, otherRival)))
    }

    /// The register after a local status update stamped `stamp`, or why it stays as it is.
    ///
    /// A lower rank never replaces a higher one, and an inference never replaces a proof; a
    /// write that would change nothing (pending again, or the same outcome with the same
    /// metadata and evidence) is not made, so it costs no stamp.
    package func applying(_ update: StatusUpdate, stamp: Stamp) -> Result<StatusRegister, StatusUpdateRefusal> {
        let current = status
        if update.status.rank < current.rank {
            return .failure(.wouldRegress(current: current))
        }
        switch (update.status, update.evidence) {
        case (.broadcasted, _):
            return .failure(.alreadyAt(current))
        case (.pending, _):
            guard current == .broadcasted else { return .failure(.alreadyAt(current)) }
            return .success(StatusRegister(pending: stamp, terminal: terminal, inferred: inferred, rival: rival))
        case (_, .inference):
            guard terminal == nil else { return .failure(.proven(current)) }
            guard let reason = update.failureReason, inferred?.value != reason else {
                return .failure(.alreadyAt(current))
            }
            return .success(StatusRegister(pending: pending, terminal: nil, inferred: Register(reason, stamp: stamp)))
        case (.confirmed, .proof), (.failed, .proof):
            if terminal?.value == update { return .failure(.alreadyAt(current)) }
            if terminal?.value.checkedOnChain == true, !update.checkedOnChain {
                return .failure(.checkedOnChain(current))
            }
            let (terminal, rival) = Self.claims(Register(update, stamp: stamp), nil, joinedWith: terminal, rival)
            return .success(StatusRegister(pending: pending, terminal: terminal, inferred: inferred, rival: rival))
        }
    }
}

/// Why a status update changed nothing: a `code` (later versions may add codes: a `switch`
/// over it has a `default:`; Specs/errors.md) and the record's status, which stays.
public struct StatusUpdateRefusal: Error, Hashable, Sendable {
    /// What kind of refusal it is: a stable name.
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        /// The record already has this status (and the same metadata).
        public static let alreadyAt: Code = "already_at"
        /// The update would move the record back to a lower rank, which the lattice forbids.
        public static let wouldRegress: Code = "would_regress"
        /// The update is an inference and the record's status is proven: proof beats inference.
        public static let proven: Code = "proven"
        /// The update is a device's word and the chain's answer, read by a status check, says
        /// otherwise: the chain's answer outranks every word.
        public static let checkedOnChain: Code = "checked_on_chain"
    }

    public let code: Code
    /// The record's status, which the update left as it was.
    public let current: TransactionStatus

    /// The record already has `status` (and the same metadata).
    public static func alreadyAt(_ status: TransactionStatus) -> StatusUpdateRefusal {
        StatusUpdateRefusal(code: .alreadyAt, current: status)
    }

    /// The update would move the record back from `current`, a higher rank.
    public static func wouldRegress(current: TransactionStatus) -> StatusUpdateRefusal {
        StatusUpdateRefusal(code: .wouldRegress, current: current)
    }

    /// The update is an inference and the record is proven `current`.
    public static func proven(_ current: TransactionStatus) -> StatusUpdateRefusal {
        StatusUpdateRefusal(code: .proven, current: current)
    }

    /// The update is a device's word and the chain said `current`.
    public static func checkedOnChain(_ current: TransactionStatus) -> StatusUpdateRefusal {
        StatusUpdateRefusal(code: .checkedOnChain, current: current)
    }
}

extension StatusUpdateRefusal: LocalizedError {
    public var errorDescription: String? {
        switch code {
        case .wouldRegress: "the transaction is already \(current.rawValue); a status never goes back"
        case .proven: "the transaction is proven \(current.rawValue); an inference does not replace a proof"
        case .checkedOnChain:
            "the chain says the transaction is \(current.rawValue) (read by a status check); a device's word does not replace the chain's answer"
        default: "the transaction is already \(current.rawValue)"
        }
    }
}

extension Register<StatusUpdate> {
    /// The claim as a rival keeps it (`StatusUpdate.disputedPart`).
    var disputedPart: Register<StatusUpdate> { Register(value.disputedPart, stamp: stamp) }
}
