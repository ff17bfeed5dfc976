/// The fields of a record frame, numbered from 1 in the order of `all` (Specs/bundle-format.md,
/// "Record frames"). Their names are the `record` table's columns (schema.md); a frame leaves
/// out `id` (derived from the facts), `vault_id` (the payload header's) and `app_id`, and
/// carries the app's fields instead. Every format numbers the fields alike; they differ in how
/// some values are written (`Kind`) and, from format 4, in tags that carry a wire type, so
/// that fields above the table (`NewerFields`) can be read without being known.
enum RecordFrameField {
    /// How a field's value is written in formats 2 to 4 (`all`); `inFormat(1)` gives format 1's.
    enum Kind {
        /// An svarint.
        case integer
        /// Format 1's text: a uvarint byte length, then UTF-8.
        case plainText
        /// A compact text (`CompactText`); a plain text in format 1.
        case text
        /// A reference into the bundle's table of repeated texts (`SharedTextTable`); a plain
        /// text in format 1.
        case sharedText
        /// A replica reference (see `PayloadEncoder`).
        case replica
        /// Milliseconds as an svarint difference from the frame's `timestamp_ms`; an svarint in
        /// format 1.
        case sinceTimestamp
        /// A stamp's time: the svarint difference of its milliseconds from its base (the
        /// frame's `timestamp_ms` for the facts stamp, the facts stamp's milliseconds for the
        /// others), then the counter as a uvarint; an svarint in format 1.
        case stampTime

        /// The wire type of a field of this kind in a format 4 tag.
        var wireType: WireType {
            switch self {
            case .integer, .sinceTimestamp: .varint
            case .stampTime: .stampTime
            case .plainText, .text: .text
            case .sharedText: .sharedText
            case .replica: .replica
            }
        }

        func inFormat(_ version: UInt8) -> Kind {
            guard version == 1 else { return self }
            return switch self {
            case .integer, .sinceTimestamp, .stampTime: .integer
            case .plainText, .text, .sharedText: .plainText
            case .replica: .replica
            }
        }
    }

    static let all: [(column: String, kind: Kind)] = [
        ("kind", .sharedText), ("chain", .sharedText), ("timestamp_ms", .integer), ("tx_hash", .text),
        ("explorer_url", .text),
        ("fiat_value", .text), ("from_address", .sharedText), ("app_domain", .sharedText), ("app_uri", .sharedText),
        ("app_scheme", .sharedText), ("method", .sharedText),
        ("to_address", .text), ("amount", .text), ("token_symbol", .sharedText), ("token_contract", .sharedText),
        ("token_decimals", .integer), ("token_logo", .sharedText), ("fee_estimate", .text), ("memo", .text),
        ("from_token_symbol", .sharedText), ("from_token_contract", .sharedText), ("from_token_decimals", .integer),
        ("from_amount", .text), ("from_chain", .sharedText), ("from_token_logo", .sharedText),
        ("to_token_symbol", .sharedText), ("to_token_contract", .sharedText), ("to_token_decimals", .integer),
        ("to_amount", .text), ("min_payout", .text), ("to_chain", .sharedText), ("to_token_logo", .sharedText),
        ("provider", .sharedText), ("route", .sharedText), ("message", .text), ("signature", .text),
        ("facts_time", .stampTime), ("facts_replica", .replica),
        ("pending_time", .stampTime), ("pending_replica", .replica),
        ("terminal_status", .sharedText), ("confirmed_at_ms", .sinceTimestamp), ("failure_reason", .sharedText),
        ("terminal_time", .stampTime), ("terminal_replica", .replica),
        ("last_checked_at_ms", .sinceTimestamp),
        ("note", .text), ("note_time", .stampTime), ("note_replica", .replica),
        ("labels", .sharedText), ("labels_time", .stampTime), ("labels_replica", .replica),
        ("hidden", .integer), ("hidden_time", .stampTime), ("hidden_replica", .replica),
        ("nonce", .integer),
    ]

    /// Where each field's value goes in `RecordValues`.
    static let positions = all.map { RecordValues.position($0.column) }

    /// Whether field `number` holds a fact (1–36, and `nonce`, 56), not a stamp or a register.
    static func isFact(number: Int) -> Bool {
        number <= 36 || number == 56
    }

    /// The field numbers (from 1) of the bases of differences: `timestamp_ms` and `facts_time`.
    static let timestampNumber = 3, factsTimeNumber = 37

    /// Largest frame a reader accepts, in bytes: a message may hold 1 Mi characters of UTF-8.
    static let maxFrameBytes = 8 << 20
}
