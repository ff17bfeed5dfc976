/// The fields of a record frame, numbered from 1 in the order of `all` (Specs/bundle-format.md,
/// "Record frames"). Their names are the `record` table's columns (schema.md); a frame leaves
/// out `id` (derived from the facts), `vault_id` (the payload header's) and `app_id`, and
/// carries the app's fields instead.
enum RecordFrameField {
    enum Kind {
        /// An svarint.
        case integer
        /// A text.
        case text
        /// A replica reference (see `PayloadEncoder`).
        case replica
    }

    static let all: [(column: String, kind: Kind)] = [
        ("kind", .text), ("chain", .text), ("timestamp_ms", .integer), ("tx_hash", .text), ("explorer_url", .text),
        ("fiat_value", .text), ("from_address", .text), ("app_domain", .text), ("app_uri", .text), ("app_scheme", .text),
        ("method", .text),
        ("to_address", .text), ("amount", .text), ("token_symbol", .text), ("token_contract", .text),
        ("token_decimals", .integer), ("token_logo", .text), ("fee_estimate", .text), ("memo", .text),
        ("from_token_symbol", .text), ("from_token_contract", .text), ("from_token_decimals", .integer),
        ("from_amount", .text), ("from_chain", .text), ("from_token_logo", .text),
        ("to_token_symbol", .text), ("to_token_contract", .text), ("to_token_decimals", .integer),
        ("to_amount", .text), ("min_payout", .text), ("to_chain", .text), ("to_token_logo", .text),
        ("provider", .text), ("route", .text), ("message", .text), ("signature", .text),
        ("facts_time", .integer), ("facts_replica", .replica),
        ("pending_time", .integer), ("pending_replica", .replica),
        ("terminal_status", .text), ("confirmed_at_ms", .integer), ("failure_reason", .text),
        ("terminal_time", .integer), ("terminal_replica", .replica),
        ("last_checked_at_ms", .integer),
        ("note", .text), ("note_time", .integer), ("note_replica", .replica),
        ("labels", .text), ("labels_time", .integer), ("labels_replica", .replica),
        ("hidden", .integer), ("hidden_time", .integer), ("hidden_replica", .replica),
        ("nonce", .integer),
    ]

    /// Where each field's value goes in `RecordValues`.
    static let positions = all.map { RecordValues.position($0.column) }

    /// Largest frame a reader accepts, in bytes: a message may hold 1 Mi characters of UTF-8.
    static let maxFrameBytes = 8 << 20
}
