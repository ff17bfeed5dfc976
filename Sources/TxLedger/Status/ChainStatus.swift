import Foundation

/// What a chain says about a transaction, as a status provider reads it.
public enum ChainStatus: Hashable, Sendable {
    /// The chain does not know the transaction (yet): no evidence either way, so the record's
    /// status is left as it is. Absence alone never fails a transaction.
    case unknown
    /// The network has the transaction but it is not final (in a mempool, not finalized, a
    /// swap whose outbound is not sent yet). A broadcasted record becomes pending.
    case pending
    /// Final and successful; `at` is the block time when the provider could read it cheaply.
    case confirmed(at: Date?)
    /// Final and unsuccessful: reverted, dropped or replaced, refunded, or an error code.
    case failed(reason: String)

    /// The status update this answer asks for, or `nil` for `.unknown`.
    /// - Throws: `StatusCheckError.malformedResponse` for a confirmation time outside
    ///   1970–9999 (a node's nonsense must not end the pass, nor be stored).
    var update: StatusUpdate? {
        get throws {
            switch self {
            case .unknown: return nil
            case .pending: return .pending
            case let .confirmed(at):
                do {
                    return try StatusUpdate.confirmed(at: at).validated()
                } catch {
                    throw StatusCheckError.malformedResponse("a confirmation time outside 1970–9999")
                }
            case let .failed(reason):
                // A storable reason (at most 4000 bytes, no control characters) always fits.
                return .failed(reason: Self.storable(reason))
            }
        }
    }

    /// Failure reasons quote the chain (a Cosmos `raw_log` can be long); they are cut to this.
    static let maxReasonCharacters = 1000

    /// A reason as the ledger accepts it: control characters other than newlines and tabs
    /// become spaces, and it is cut to `maxReasonCharacters`; an empty one says so.
    static func storable(_ reason: String) -> String {
        let scalars = reason.unicodeScalars.map { scalar -> Character in
            let isControl = scalar.value < 0x20 || scalar.value == 0x7F
            return isControl && scalar != "\n" && scalar != "\t" ? " " : Character(scalar)
        }
        let text = String(String(scalars).prefix(maxReasonCharacters)).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "failed on chain" : text
    }
}
