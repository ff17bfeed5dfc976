import Foundation
import GRDB
import TxLedgerCore

/// Maps a record to its row of the `record` table and back (Specs/schema.md, "record"): the
/// record's whole state as one frame (`state`, encoded as a bundle frame that refers to the
/// file's tables, `FrameTables`; newer fields included), and beside it the small integers that
/// queries filter and sort on, derived from the state whenever it is written.
package enum RecordRow {
    /// The columns of a record's row but its number, in the order `values` binds them.
    enum Column: String, CaseIterable {
        case id, vault, time, kind, chain, replaced, status, hidden, erased
        case changeSeq = "change_seq"
        case state, disputed
    }
    static let columns = Column.allCases.map(\.rawValue)
    /// The columns a write that keeps the facts changes.
    static let registerColumns: [Column] = [.status, .hidden, .erased, .disputed, .changeSeq, .state]

    /// Whether `a` and `b`, states of one record, have the same values in every column but
    /// the registers' (`registerColumns`): a write of `b` over `a` may then write those alone.
    package static func sameFactsColumns(_ a: RecordState, _ b: RecordState) -> Bool {
        a.facts.value.timestamp == b.facts.value.timestamp && a.facts.value.kind == b.facts.value.kind
            && a.replacedID == b.replacedID
    }

    /// `SELECT` list that `StoredRow` reads, from `source`.
    static let selection = "record.id, vault.id, record.state, record.time"
    /// The rows of `record` alone, for what a block never holds (disputed, inferred, replacing,
    /// cleared, suspected records); every other read goes through `RecordQuery`, over blocks too.
    static let source = "record JOIN vault ON vault.num = record.vault"
    /// The condition a visible record meets: its facts are later than its vault's watermark.
    static let isVisible = "record.erased = 0"

    /// The values of the columns for `state`, stored as `frame`, in the vault and chain
    /// numbered `vault` and `chain`.
    static func values(
        of state: RecordState,
        frame: [UInt8],
        vault: Int64,
        chain: Int64,
        erased: Bool,
        changeSeq: Int64
    ) -> Values {
        let facts = state.facts.value
        return Values(
            id: state.id,
            vault: vault,
            time: facts.timestamp.millis,
            kind: kindCode(facts.kind),
            chain: chain,
            replaced: state.replacedID,
            status: statusCode(state.status),
            hidden: state.hidden?.value == true,
            erased: erased,
            disputed: state.status.isDisputed,
            changeSeq: changeSeq,
            state: frame
        )
    }

    /// `kind`: 0 send, 1 swap, 2 signature.
    static func kindCode(_ kind: TransactionKind) -> Int64 {
        switch kind {
        case .send: 0
        case .swap: 1
        case .signature: 2
        }
    }

    /// `status`: 0 broadcasted, 1 pending, 2 confirmed, 3 failed (proven), 4 failed by
    /// inference (the rare rows a status check looks at again, `record_inferred`), 5 failed,
    /// replaced by another transaction (left out of listings unless asked for).
    static func statusCode(_ status: StatusRegister) -> Int64 {
        switch status.status {
        case .broadcasted: 0
        case .pending: 1
        case .confirmed: 2
        case .failed:
            status.evidence == .inference ? 4 : status.terminal?.value.replacedBy != nil ? replacedCode : 3
        }
    }

    /// The `status` code of a record replaced by another transaction.
    static let replacedCode: Int64 = 5

    /// The `status` codes of rows that show `status`.
    static func statusCodes(_ status: TransactionStatus) -> [Int64] {
        switch status {
        case .broadcasted: [0]
        case .pending: [1]
        case .confirmed: [2]
        case .failed: [3, 4, replacedCode]
        }
    }

    /// The error of a row whose record, `id` (if its id is one), is malformed for `reason`.
    static func malformed(_ id: TransactionID?, _ reason: String, path: String) -> LedgerError {
        .unreadableDatabase(path: path, reason: "record \(id?.rawValue ?? "?") is malformed (\(reason))")
    }

    /// The bytes of a BLOB value (not of a text, which GRDB would convert).
    static func blob(_ value: DatabaseValue) -> Data? {
        guard case let .blob(data) = value.storage else { return nil }
        return data
    }

    /// `record_text(state, number)`: the text of field `number` of a stored state as the frame
    /// holds it: a text written out, or the `num` of its entry in `frame_text` (an integer);
    /// NULL when the field is absent (or the state does not decode). `HistoryConditions.text`
    /// resolves the number; the search, token and provider filters read it so.
    static let textFunction = DatabaseFunction("record_text", argumentCount: 2, pure: true) { values in
        guard let frame = blob(values[0]), let number = Int.fromDatabaseValue(values[1]),
            let field = RecordField(number: number)
        else { return nil }
        var decoder = FrameDecoder.storedUnresolved()
        switch try? decoder.fields(Array(frame), vault: "", index: 0)[field] {
        case let .text(text)?: return text
        case let .integer(reference)?: return field.repeatsAcrossRecords ? reference : nil
        case nil: return nil
        }
    }
}
