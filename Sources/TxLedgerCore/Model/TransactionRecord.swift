import Foundation

/// A transaction as an app shows it: its immutable facts (reachable directly, e.g.
/// `record.chain`, `record.txHash`) and the current value of its status and annotations.
///
/// Also the input of `Ledger.record(_:)`: a new record may come with a status other than
/// `broadcasted` and with annotations (when a history is moved in from another app).
@dynamicMemberLookup
public struct TransactionRecord: Hashable, Sendable, Identifiable {
    public let facts: TransactionFacts
    /// The status and its metadata, as the update that would set them (what `record(_:)`
    /// applies).
    package private(set) var statusUpdate: StatusUpdate
    public var status: TransactionStatus { statusUpdate.status }
    public var confirmedAt: Date? { statusUpdate.confirmedAt }
    public var failureReason: String? { statusUpdate.failureReason }
    /// The block (height, slot) that holds the transaction, where a proven status said.
    public var blockNumber: UInt64? { statusUpdate.blockNumber }
    /// The fee the transaction paid, in the chain's native unit, where a proven status said.
    public var feePaid: DecimalAmount? { statusUpdate.feePaid }
    /// The hash of the transaction that took this one's place: the speed-up or cancel that
    /// confirmed, or the original that confirmed before this replacement (a failed record).
    public var replacedBy: String? { statusUpdate.replacedBy }
    /// How a confirmed or failed status was learned; `nil` while the status is not terminal.
    /// An inferred failure ("dropped or replaced") is overturned by any proof.
    public var statusEvidence: StatusEvidence? { status.isTerminal ? statusUpdate.evidence : nil }
    /// Whether a status check read the shown outcome from the chain (on any device), rather
    /// than a device's word: the chain's answer outranks every word, whatever the stamps.
    public var statusCheckedOnChain: Bool { statusUpdate.checkedOnChain }
    /// The greatest claim against the shown outcome: a dispute while no chain answer settled
    /// it, else the claim the chain overruled (`StatusDispute.settled`).
    public private(set) var statusDispute: StatusDispute?
    /// When a status provider last checked this transaction.
    public private(set) var lastCheckedAt: Date?
    public let note: String?
    /// Sorted, without duplicates.
    public let labels: [String]
    public let hidden: Bool

    public var id: TransactionID { facts.id }

    public subscript<T>(dynamicMember keyPath: KeyPath<TransactionFacts, T>) -> T {
        facts[keyPath: keyPath]
    }

    /// - Throws: `LedgerError.invalidInput` for metadata that does not fit the status, or an
    ///   annotation over its limits (see `Specs/schema.md`).
    public init(
        facts: TransactionFacts,
        status: StatusUpdate? = nil,
        lastCheckedAt: Date? = nil,
        note: String? = nil,
        labels: [String] = [],
        hidden: Bool = false
    ) throws {
        self.facts = facts
        self.statusUpdate = try status?.validated(for: facts.chain) ?? .broadcasted
        self.lastCheckedAt = try lastCheckedAt.map {
            Date(millis: try Date.validatedMillis($0, field: "lastCheckedAt"))
        }
        self.note = try TextField.note.validate(note, field: "note")
        self.labels = try Self.normalizedLabels(labels)
        self.hidden = hidden
    }

    init(state: RecordState) {
        facts = state.facts.value
        statusUpdate = state.status.update
        statusDispute = StatusDispute(state.status)
        lastCheckedAt = state.lastCheckedAt
        note = state.note?.value
        labels = state.labels?.value ?? []
        hidden = state.hidden?.value ?? false
    }

    /// The record as its JSON reads back as input: without what only a stored state says (the
    /// chain's flag, the dispute), which input ignores.
    package var asInput: TransactionRecord {
        var input = self
        input.statusDispute = nil
        input.statusUpdate = StatusUpdate(
            checked: statusUpdate.status,
            confirmedAt: statusUpdate.confirmedAt,
            failureReason: statusUpdate.failureReason,
            details: statusUpdate.details,
            evidence: statusUpdate.evidence
        )
        return input
    }

    /// What a screen shows of the record: everything but `lastCheckedAt`, which only says when
    /// a status check last ran (observations compare these).
    package var shown: TransactionRecord {
        var shown = self
        shown.lastCheckedAt = nil
        return shown
    }

    static let maxLabels = 32

    /// Labels as a set (Specs/schema.md, "Labels"): each one line of at most 64 bytes, in
    /// Unicode NFC (checked after the conversion); at most 32; without duplicates; sorted by
    /// their UTF-8 bytes.
    package static func normalizedLabels(_ labels: [String]) throws -> [String] {
        let unique = Set(
            try labels.map {
                // ASCII is its own NFC form: only other labels are converted.
                try TextField.line(max: 64).validate(
                    $0.utf8.allSatisfy { $0 < 0x80 } ? $0 : $0.precomposedStringWithCanonicalMapping,
                    field: "label"
                )
            }
        )
        guard unique.count <= maxLabels else {
            throw LedgerError.invalidInput(field: "labels", reason: "\(unique.count) labels; the limit is \(maxLabels)")
        }
        return unique.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
