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
}

extension StatusUpdateRefusal: LocalizedError {
    public var errorDescription: String? {
        switch code {
        case .wouldRegress: "the transaction is already \(current.rawValue); a status never goes back"
        case .proven: "the transaction is proven \(current.rawValue); an inference does not replace a proof"
        default: "the transaction is already \(current.rawValue)"
        }
    }
}
