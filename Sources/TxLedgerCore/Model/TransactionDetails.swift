/// The facts that depend on the kind of record.
public enum TransactionDetails: Hashable, Sendable {
    case send(SendDetails)
    case swap(SwapDetails)
    case signature(SignatureDetails)

    public var kind: TransactionKind {
        switch self {
        case .send: .send
        case .swap: .swap
        case .signature: .signature
        }
    }
}
