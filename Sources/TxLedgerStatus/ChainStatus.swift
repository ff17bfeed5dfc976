import Foundation
import TxLedgerCore

/// What a chain says about a transaction, as a status provider reads it.
public enum ChainStatus: Hashable, Sendable {
    /// The chain does not know the transaction (yet): no evidence either way, so the record's
    /// status is left as it is. Absence alone never fails a transaction.
    case unknown
    /// The network has the transaction but it is not final (in a mempool, not finalized, a
    /// swap whose outbound is not sent yet). A broadcasted record becomes pending.
    case pending
    /// Final and successful, observed (proof); `at` is the block time, `block` the block
    /// (height, slot) and `feePaid` the fee in the chain's native unit, where the provider
    /// read them.
    case confirmed(at: Date?, block: UInt64? = nil, feePaid: DecimalAmount? = nil)
    /// Final and unsuccessful, observed (proof): reverted, refunded, an error code, replaced by
    /// a confirmed transaction; with the block, the fee paid and the replacing transaction's
    /// hash where the provider read them.
    case failed(reason: String, block: UInt64? = nil, feePaid: DecimalAmount? = nil, replacedBy: String? = nil)
    /// Failed by inference: dropped or replaced, because another transaction used the sender's
    /// nonce. Shown only while nothing is proven; any later proof overturns it.
    case inferredFailure(reason: String)

    /// The status update this answer asks for, or `nil` for `.unknown`.
    /// - Throws: `StatusCheckError.malformedResponse` for a confirmation time outside
    ///   1970–9999 or a block number above 2^63 − 1 (a node's nonsense must not end the pass,
    ///   nor be stored).
    var update: StatusUpdate? {
        get throws {
            switch self {
            case .unknown: return nil
            case .pending: return .pending
            case let .confirmed(at, block, feePaid):
                return try Self.checked(.confirmed(at: at, block: block, feePaid: feePaid))
            case let .failed(reason, block, feePaid, replacedBy):
                // A storable reason (at most 4000 bytes, no control characters) always fits.
                return try Self.checked(
                    .failed(reason: Self.storable(reason), block: block, feePaid: feePaid, replacedBy: replacedBy)
                )
            case let .inferredFailure(reason):
                return .inferredFailure(reason: Self.storable(reason))
            }
        }
    }

    private static func checked(_ update: StatusUpdate) throws -> StatusUpdate {
        do {
            return try update.validated()
        } catch let error as LedgerError where error.field == RecordField.blockNumber.key {
            throw StatusCheckError.malformedResponse("a block number above 2^63 − 1")
        } catch {
            throw StatusCheckError.malformedResponse("a confirmation time outside 1970–9999")
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
