import Foundation

/// The small texts every history screen derives from records, written once here so that apps
/// (and the CLI) do not each copy them. English defaults; `Specs/queries.md` lists them.
public enum HistoryText {
    /// `0x1234…abcd`: the first `head` and last `tail` characters of a long hash or address;
    /// shorter text is returned whole.
    public static func truncated(_ text: String, head: Int = 6, tail: Int = 4) -> String {
        text.count > head + tail + 1 ? "\(text.prefix(head))…\(text.suffix(tail))" : text
    }

    /// Who asked for the transaction: the app's domain, else its URI, else its scheme, else `Unknown App`.
    public static func appLabel(_ app: AppMetadata?) -> String {
        app?.domain ?? app?.uri ?? app?.scheme ?? "Unknown App"
    }

    /// The record's explorer page, if the chain has one (`Specs/schema.md`, `explorerUrl`).
    public static func explorerURL(_ record: TransactionRecord) -> URL? {
        record.explorerUrl.flatMap(URL.init(string:))
    }

    /// The badge of a record's kind: `Send`, `Swap`, `Signature`.
    public static func kind(_ kind: TransactionKind) -> String {
        kind.rawValue.prefix(1).uppercased() + kind.rawValue.dropFirst()
    }

    /// The status as the resolved cards show it: `Broadcasted`, `Pending`, `Successful`, `Error`
    /// (vault-transaction-history.md).
    public static func status(_ status: TransactionStatus) -> String {
        switch status {
        case .broadcasted: "Broadcasted"
        case .pending: "Pending"
        case .confirmed: "Successful"
        case .failed: "Error"
        }
    }

    /// The status word of `record`'s card: `status(_:)`, except that a signature request, which
    /// is complete once signed, reads `Signed` unless it failed.
    public static func status(of record: TransactionRecord) -> String {
        (record.kind == .signature && record.status != .failed ? "Signed" : status(record.status))
            + (record.statusDispute.map { $0.settled ? "" : " (disputed)" } ?? "")
    }

    /// The claim against the shown outcome: `confirmed, block 5, fee 0.001, by replica
    /// 0123456789abcdef`, and `, overruled by the chain` once settled.
    public static func dispute(_ dispute: StatusDispute) -> String {
        ([dispute.status.rawValue]
            + [dispute.blockNumber.map { "block \($0)" }, dispute.feePaid.map { "fee \($0.string)" }]
            .compactMap { $0 } + ["by replica \(dispute.claimedBy)"]
            + (dispute.settled ? ["overruled by the chain"] : []))
            .joined(separator: ", ")
    }

    /// Time since `start` in the two largest units: `45s`, `2m 14s`, `1h 5m`, `3d 4h`. A start
    /// after `now` (a clock ahead) reads `0s`.
    public static func elapsed(since start: Date, now: Date) -> String {
        let seconds = max(0, Int((now.timeIntervalSince(start)).rounded(.down)))
        let (days, hours, minutes) = (seconds / 86_400, seconds / 3_600 % 24, seconds / 60 % 60)
        if days > 0 { return "\(days)d \(hours)h" }
        if hours > 0 { return "\(hours)h \(minutes)m" }
        if minutes > 0 { return "\(minutes)m \(seconds % 60)s" }
        return "\(seconds)s"
    }

    /// `In progress… 2m 14s` for a record broadcast at `start` (the in-progress card).
    public static func inProgress(since start: Date, now: Date) -> String {
        "In progress… " + elapsed(since: start, now: now)
    }

    /// What an empty list says: the reference wallet's sentence for an empty history, one per
    /// tab, one for the in-progress and completed lists, and one when filters matched nothing.
    public static func emptyState(_ filter: HistoryFilter) -> String {
        if filter.isNarrowed { return "No transactions match these filters." }
        switch (filter.stage, filter.tab) {
        case (.inProgress, _): return "No transactions in progress."
        case (.completed, _): return "No completed transactions yet."
        case (.all, .overview): return "No transactions yet. Your sends and swaps will appear here."
        case (.all, .swaps): return "No swaps yet."
        case (.all, .sends): return "No sends yet."
        case (.all, .signatures): return "No signature requests yet."
        }
    }
}
