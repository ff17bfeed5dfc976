import Foundation
import TxLedger

/// What `refresh` prints about a pass: lines for people, or JSON for scripts.
struct RefreshReport: Encodable {
    struct Entry: Encodable {
        let id: String
        let chain: String
        let kind: String
        let txHash: String?
        let previousStatus: String
        let status: String
        let confirmedAt: String?
        let failureReason: String?
        /// The status details by key (`blockNumber`, `feePaid`, `replacedBy`), each written as
        /// a record's JSON writes it.
        let details: [String: String]
        /// `proof` or `inference`, for a confirmed or failed record.
        let statusEvidence: String?
        /// For records not checked: a `StatusCheckError.code` and its description.
        let problem: String?
        let detail: String?

        init(_ result: RefreshResult) {
            let r = result.record
            id = r.id.rawValue
            chain = r.chain.id
            kind = r.kind.rawValue
            txHash = r.txHash
            previousStatus = result.previousStatus.rawValue
            status = r.status.rawValue
            confirmedAt = r.confirmedAt.map(ISO8601.string(from:))
            failureReason = r.failureReason
            details = r.statusUpdate.details
            statusEvidence = r.statusEvidence?.rawValue
            if case let .notChecked(error) = result.outcome {
                problem = error.code.rawValue
                detail = error.description
            } else {
                problem = nil
                detail = nil
            }
        }

        private enum Key: String, CodingKey {
            case id, chain, kind, txHash, previousStatus, status, confirmedAt, failureReason, statusEvidence, problem
            case detail
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(id, forKey: .id)
            try c.encode(chain, forKey: .chain)
            try c.encode(kind, forKey: .kind)
            try c.encodeIfPresent(txHash, forKey: .txHash)
            try c.encode(previousStatus, forKey: .previousStatus)
            try c.encode(status, forKey: .status)
            try c.encodeIfPresent(confirmedAt, forKey: .confirmedAt)
            try c.encodeIfPresent(failureReason, forKey: .failureReason)
            try RecordField.encode(RecordField.statusDetails, details, to: encoder)
            try c.encodeIfPresent(statusEvidence, forKey: .statusEvidence)
            try c.encodeIfPresent(problem, forKey: .problem)
            try c.encodeIfPresent(detail, forKey: .detail)
        }
    }

    let changed: [Entry]
    let stillPending: [Entry]
    let notChecked: [Entry]

    init(_ summary: RefreshSummary) {
        changed = summary.changed.map(Entry.init)
        stillPending = summary.stillPending.map(Entry.init)
        notChecked = summary.notChecked.map(Entry.init)
    }

    /// One line per record (changed, then still pending unless `quiet`, then not checked),
    /// and a count line.
    func lines(includingPending: Bool = true) -> [String] {
        var lines = changed.map { e in
            let detail =
                e.status == "confirmed"
                ? (e.confirmedAt.map { "confirmed at \($0)" } ?? "confirmed")
                : (e.statusEvidence == "inference" ? "inferred: " : "") + (e.failureReason ?? e.status)
            return row(e, e.status, "was \(e.previousStatus); \(detail)")
        }
        if includingPending { lines += stillPending.map { row($0, $0.status, "still \($0.status)") } }
        lines += notChecked.map { row($0, "unchecked", $0.detail ?? "") }
        return lines
    }

    var countLine: String {
        "\(changed.count) changed, \(stillPending.count) still pending, \(notChecked.count) not checked"
    }

    private func row(_ e: Entry, _ word: String, _ detail: String) -> String {
        [
            word.padding(toLength: 11, withPad: " ", startingAt: 0),
            e.chain.padding(toLength: 10, withPad: " ", startingAt: 0),
            e.kind.padding(toLength: 5, withPad: " ", startingAt: 0), HistoryText.truncated(e.txHash ?? e.id), detail,
        ]
        .joined(separator: " ")
    }
}
