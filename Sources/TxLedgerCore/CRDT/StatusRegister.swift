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
package struct StatusRegister: Hashable, Sendable {
    package let pending: Stamp?
    package let terminal: Register<StatusUpdate>?
    package let inferred: Register<String>?

    init(pending: Stamp? = nil, terminal: Register<StatusUpdate>? = nil, inferred: Register<String>? = nil) {
        self.pending = pending
        self.terminal = terminal
        self.inferred = inferred
    }

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
    package var stamps: [Stamp?] { [pending, terminal?.stamp, inferred?.stamp] }

    func joined(with other: StatusRegister) -> StatusRegister {
        StatusRegister(
            pending: [pending, other.pending].compactMap { $0 }.max(),
            terminal: terminal.joined(with: other.terminal),
            inferred: inferred.joined(with: other.inferred)
        )
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
            return .success(StatusRegister(pending: stamp, terminal: terminal, inferred: inferred))
        case (_, .inference):
            guard terminal == nil else { return .failure(.proven(current)) }
            guard let reason = update.failureReason, inferred?.value != reason else {
                return .failure(.alreadyAt(current))
            }
            return .success(StatusRegister(pending: pending, terminal: nil, inferred: Register(reason, stamp: stamp)))
        case (.confirmed, .proof), (.failed, .proof):
            if terminal?.value == update { return .failure(.alreadyAt(current)) }
            return .success(
                StatusRegister(pending: pending, terminal: Register(update, stamp: stamp), inferred: inferred)
            )
        }
    }
}

/// Why a status update changed nothing.
public enum StatusUpdateRefusal: Error, Hashable, Sendable {
    /// The record already has this status (and the same metadata).
    case alreadyAt(TransactionStatus)
    /// The update would move the record back to a lower rank, which the lattice forbids.
    case wouldRegress(current: TransactionStatus)
    /// The update is an inference and the record's status is proven: proof beats inference.
    case proven(TransactionStatus)

    /// A stable name of the case (Specs/errors.md).
    public var code: String {
        switch self {
        case .alreadyAt: "already_at"
        case .wouldRegress: "would_regress"
        case .proven: "proven"
        }
    }
}

extension StatusUpdateRefusal: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case let .alreadyAt(status): "the transaction is already \(status.rawValue)"
        case let .wouldRegress(current): "the transaction is already \(current.rawValue); a status never goes back"
        case let .proven(current):
            "the transaction is proven \(current.rawValue); an inference does not replace a proof"
        }
    }
}
