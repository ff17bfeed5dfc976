/// What the user did.
public enum TransactionKind: String, Sendable, CaseIterable, Codable {
    case send
    case swap
    case signature
}
