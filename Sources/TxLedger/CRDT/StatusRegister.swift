import Foundation

/// The status of a record as a join-semilattice made of two last-writer-wins registers:
///
/// - `pending`: the stamp of the write that marked the record pending (absent: never pending);
/// - `terminal`: the confirmed-or-failed outcome with its metadata (absent: not yet decided).
///
/// The visible status is the terminal outcome if there is one, else `pending` if it was ever
/// marked pending, else `broadcasted`. So the join of two states shows the higher rank, and
/// between `confirmed` and `failed` the later stamp wins, with its `confirmedAt` or
/// `failureReason`. Every part joins by "greater stamp wins", which keeps the laws trivially
/// true and lets a per-stamp filter (a vault clear) commute with the join.
struct StatusRegister: Hashable, Sendable {
    let pending: Stamp?
    let terminal: Register<TerminalOutcome>?

    init(pending: Stamp? = nil, terminal: Register<TerminalOutcome>? = nil) {
        self.pending = pending
        self.terminal = terminal
    }

    var status: TransactionStatus {
        terminal?.value.status ?? (pending == nil ? .broadcasted : .pending)
    }

    func joined(with other: StatusRegister) -> StatusRegister {
        StatusRegister(
            pending: [pending, other.pending].compactMap { $0 }.max(),
            terminal: terminal.joined(with: other.terminal)
        )
    }

    /// The register after a local status update stamped `stamp`, or why it stays as it is.
    ///
    /// A lower rank never replaces a higher one; a write that would change nothing (pending
    /// again, or the same outcome with the same metadata) is not made, so it costs no stamp.
    func applying(_ update: StatusUpdate, stamp: Stamp) -> Result<StatusRegister, StatusUpdateRefusal> {
        let current = status
        if update.status.rank < current.rank {
            return .failure(.wouldRegress(current: current))
        }
        switch update.status {
        case .broadcasted:
            return .failure(.alreadyAt(current))
        case .pending:
            guard current == .broadcasted else { return .failure(.alreadyAt(current)) }
            return .success(StatusRegister(pending: stamp, terminal: terminal))
        case .confirmed, .failed:
            let outcome = TerminalOutcome(
                status: update.status,
                confirmedAt: update.confirmedAt,
                failureReason: update.failureReason
            )
            if terminal?.value == outcome { return .failure(.alreadyAt(current)) }
            return .success(StatusRegister(pending: pending, terminal: Register(outcome, stamp: stamp)))
        }
    }
}

/// Why a status update changed nothing.
public enum StatusUpdateRefusal: Error, Hashable, Sendable {
    /// The record already has this status (and the same metadata).
    case alreadyAt(TransactionStatus)
    /// The update would move the record back to a lower rank, which the lattice forbids.
    case wouldRegress(current: TransactionStatus)

    /// A stable name of the case (Specs/errors.md).
    public var code: String {
        switch self {
        case .alreadyAt: "already_at"
        case .wouldRegress: "would_regress"
        }
    }
}

extension StatusUpdateRefusal: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case let .alreadyAt(status): "the transaction is already \(status.rawValue)"
        case let .wouldRegress(current): "the transaction is already \(current.rawValue); a status never goes back"
        }
    }
}
