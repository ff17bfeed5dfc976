/// Where a transaction stands: `broadcasted -> pending -> confirmed | failed`.
///
/// Statuses form a lattice ordered by `rank`; a record's status never goes back to a lower
/// rank. `confirmed` and `failed` share the top rank: between them the later write wins.
public enum TransactionStatus: String, Sendable, CaseIterable, Codable {
    case broadcasted
    case pending
    case confirmed
    case failed

    /// 0 for broadcasted, 1 for pending, 2 for the terminal statuses.
    public var rank: Int {
        switch self {
        case .broadcasted: 0
        case .pending: 1
        case .confirmed, .failed: 2
        }
    }

    /// Whether no later check can change it except to the other terminal status.
    public var isTerminal: Bool { rank == 2 }

    /// Parses `broadcasted`, `pending`, `confirmed` or `failed`.
    public init(parsing text: String) throws {
        guard let status = TransactionStatus(rawValue: text.lowercased()) else {
            throw LedgerError.invalidInput(
                field: "status",
                reason: "'\(text.prefix(40))' is not one of broadcasted, pending, confirmed, failed"
            )
        }
        self = status
    }
}
