import TxLedgerCore
import TxLedgerStore

/// The merge of one batch of received states into their stored rows, worked out without the
/// database, on a `FrameWorker`: the stored rows decoded, each received state joined with what
/// is stored (`RecordMerge`), and each state that changed encoded as its stored frame (a
/// received state written as it came, from its received frame) and made into its row, so that
/// the writer only binds and writes it.
struct BatchMerge: Sendable {
    /// One record to write.
    enum Write: Sendable {
        /// Its row, ready to bind (`RecordStore.save(_:)`).
        case row(RecordRow.Values)
        /// The row of a record that no stored row or block held (`RecordStore.saveNew(_:)`).
        case new(RecordRow.Values)
        /// The row of a stored record whose facts' columns (time, kind, replaced) this merge
        /// left as they were: only its registers' columns are written
        /// (`RecordStore.saveRegisters(_:counted:)`), so the indexes in time order are not
        /// touched; with the stored row's counted columns as its batch read them.
        case registers(RecordRow.Values, counted: RecordStore.CountedColumns?)
        /// Its state and frame, whose chain the store numbers first (`RecordStore.save(_:frame:)`):
        /// rare (a chain's first record), so boxed, and every other write the size of a row's
        /// values instead of a state's.
        indirect case unnumbered(RecordState, frame: [UInt8])
    }

    /// The records to write, in id order (neighbouring keys, fewer pages touched).
    private(set) var writes: [Write] = []
    /// The entries the frames added to the file's tables, to write before them.
    private(set) var added: FrameEncoder.AddedEntries = ([], [])
    private(set) var report = MergeReport()
    /// Written records whose status or replacement link this merge changed and that may settle
    /// a replacement (`LedgerTransaction.mightSettle`): their ids and what may settle, not their
    /// states (in a load, that is nearly every record).
    private(set) var changedLinks: [(id: TransactionID, link: SettlingLink)] = []
    /// Written records that were not held cleared here and now are (restorable from now on:
    /// `RecordStore.noteCleared`).
    private(set) var newlyCleared: [TransactionID] = []
    /// With `comparing`: received states whose record was stored here, and of those the ones
    /// whose stored state held something the received one did not (`FullCoverage`); the same
    /// of the rows last changed at or before `comparing`'s change number.
    private(set) var matched = 0
    private(set) var storedAhead = 0
    private(set) var matchedUpToPoint = 0
    private(set) var storedAheadUpToPoint = 0

    /// Misses in a row after which a batch stops comparing received states with their rows.
    static let comparisonsMissed = 8

    /// - Parameters:
    ///   - batch: received states, already filtered by the vault's watermark.
    ///   - ids: the id of each (read as the states came: reading them here copied each state).
    ///   - frames: the frame of each, if it came in one that a store may keep as it is.
    ///   - rows: the stored rows of their ids, in a file whose tables are `tables`.
    ///   - numbers: what the rows of `vault` are made with, its watermark among them.
    ///   - comparing: whether to count how the received states compare with the stored ones,
    ///     and the change number up to which to count them apart (`Int64.min`: none).
    ///   - listedBefore: the conflicts the merge's report listed before this batch, as far as
    ///     it is known (a batch lists conflicts until the report would hold
    ///     `MergeConflict.maxListed`; the report keeps the first that many, in order).
    /// - Throws: `LedgerError.invalidInput` if a stored record of one of these ids belongs to
    ///   another vault; `LedgerError.unreadableDatabase` if a row does not decode.
    init(
        _ batch: [RecordState],
        ids: [TransactionID],
        frames: [ReceivedFrame?],
        stored rows: [StoredRow],
        tables: FrameTables,
        path: String,
        vault: String,
        numbers: RowNumbers,
        comparing: Int64?,
        listedBefore: Int,
        encoder: inout FrameEncoder
    ) throws {
        precondition(ids.count == batch.count, "a batch's ids are its states' ids, in order")
        // A batch of records none of which is stored here, each named once (a load, new
        // records): each received state is what is written, without the lookups below, and
        // read where it lies in the batch (a `RecordMerge` of each copied it twice).
        if rows.isEmpty, let order = Self.orderNamingEachOnce(ids) {
            writes.reserveCapacity(batch.count)
            for index in order {
                // Bound once: each call below would otherwise read it out of the batch anew.
                let state = batch[index]
                note(state, replacing: nil, watermark: numbers.watermark)
                writes.append(
                    try Self.write(
                        state,
                        received: frames[index],
                        facts: nil,
                        before: nil,
                        counted: nil,
                        numbers: numbers,
                        encoder: &encoder
                    )
                )
                report.add(RecordMerge.new(state, watermark: numbers.watermark))
            }
            added = encoder.takeAddedEntries()
            return
        }
        // A received state that its stored row holds byte for byte changes nothing: it is
        // counted without decoding the row (what a file of states already merged here holds).
        // A batch stops comparing after `comparisonsMissed` misses in a row, so that a batch of
        // changes pays little for it.
        var rowsByID: [TransactionID: StoredRow] = [:]
        for row in rows { if let id = row.recordID { rowsByID[id] = row } }
        var occurrences: [TransactionID: Int] = [:]
        for incoming in batch { occurrences[incoming.id, default: 0] += 1 }
        var held: Set<TransactionID> = []
        var missed = 0
        for incoming in batch where occurrences[incoming.id] == 1 && missed < Self.comparisonsMissed {
            guard let row = rowsByID[incoming.id] else { continue }
            guard let frame = encoder.storedFrameIfHeld(incoming),
                row.holds(frame, time: incoming.facts.value.timestamp.millis, vault: vault)
            else {
                missed += 1
                continue
            }
            missed = 0
            held.insert(incoming.id)
            count(row, receivedTime: incoming.facts.value.timestamp.millis, ahead: false, up: comparing)
            report.registersUnchanged += RecordMerge.registerCount
            report.recordsUnchanged += 1
        }
        // The stored states, as the rows hold them: left as they are (a merged state goes to
        // `results`, so that this dictionary is not copied when one is written). A row that holds
        // the facts of the state received for it (named once, in a frame kept as it came) byte
        // for byte is read without them, and what it merges into is written with their bytes.
        var stored: [TransactionID: RecordState] = [:]
        stored.reserveCapacity(rows.count)
        var storedFacts: [TransactionID: StoredFrameFields] = [:]
        var receivedOnce: [TransactionID: Int] = [:]
        for (index, id) in ids.enumerated() where frames[index] != nil && occurrences[id] == 1 {
            receivedOnce[id] = index
        }
        for row in rows {
            if let id = row.recordID, held.contains(id) { continue }
            if let id = row.recordID, let index = receivedOnce[id], let frame = frames[index],
                let facts = try encoder.storedFacts(of: frame),
                let shared = try row.decode(
                    sharingFactsOf: batch[index],
                    stored: facts,
                    vault: vault,
                    tables: tables,
                    path: path
                )
            {
                stored[id] = shared.state
                storedFacts[id] = shared.frame
                continue
            }
            let state = try row.decode(tables: tables, path: path)
            stored[state.id] = state
        }
        // The states to write, and the frame of each written as it was received (new here).
        var results: [TransactionID: (state: RecordState, received: ReceivedFrame?)] = [:]
        results.reserveCapacity(batch.count)
        for (incoming, frame) in zip(batch, frames) where !held.contains(incoming.id) {
            // The same id again in this batch merges into what the batch made of it.
            let local = results[incoming.id]?.state ?? stored[incoming.id]
            if let local, local.facts.value.vaultId != vault {
                throw LedgerError.invalidInput(
                    field: "change set",
                    reason: "record \(incoming.id) belongs to vault '\(local.facts.value.vaultId)' here"
                )
            }
            let merge = RecordMerge(
                local: local,
                incoming: incoming,
                watermark: numbers.watermark,
                listing: listedBefore + report.conflicts.count < MergeConflict.maxListed
            )
            if let local, let row = rowsByID[incoming.id] {
                count(
                    row,
                    receivedTime: incoming.facts.value.timestamp.millis,
                    ahead: !(merge.result ?? local).isIdentical(to: incoming),
                    up: comparing
                )
            }
            if let result = merge.result {
                note(result, replacing: local, watermark: numbers.watermark)
                results[incoming.id] = (result, local == nil ? frame : nil)
            }
            report.add(merge.report)
        }
        writes = try results.keys.sorted().map { id in
            let result = results[id]!
            return try Self.write(
                result.state,
                received: result.received,
                facts: storedFacts[id],
                before: stored[id],
                counted: rowsByID[id]?.counted,
                numbers: numbers,
                encoder: &encoder
            )
        }
        added = encoder.takeAddedEntries()
    }

    /// The positions of `ids` in increasing order, if no id is there twice; `nil` if one is.
    private static func orderNamingEachOnce(_ ids: [TransactionID]) -> [Int]? {
        let order = ids.indices.sorted { ids[$0] < ids[$1] }
        return zip(order, order.dropFirst()).contains { ids[$0] == ids[$1] } ? nil : order
    }

    /// Takes note of `result`, which replaces the stored state `local` (`nil`: none): whether it
    /// may settle a replacement, and whether a clear hid it here.
    private mutating func note(_ result: RecordState, replacing local: RecordState?, watermark: Stamp?) {
        if local?.status != result.status || local?.replacedID != result.replacedID, let link = result.settlingLink {
            changedLinks.append((result.id, link))
        }
        if local?.isVisible(clearedThrough: watermark) ?? true, !result.isVisible(clearedThrough: watermark) {
            newlyCleared.append(result.id)
        }
    }

    /// The write of `state`, whose stored state was `before` (`nil`: none) in a row counted
    /// under `counted`: its frame stored from `received`, the frame `state` came in as it is,
    /// or encoded, with the bytes of its facts from `facts`, the stored frame that holds them.
    private static func write(
        _ state: RecordState,
        received: ReceivedFrame?,
        facts: StoredFrameFields?,
        before: RecordState?,
        counted: RecordStore.CountedColumns?,
        numbers: RowNumbers,
        encoder: inout FrameEncoder
    ) throws -> Write {
        let frame =
            try received.flatMap { try encoder.frame(storing: $0) }
            ?? facts.map { encoder.frame(state, keepingFactsOf: $0) } ?? encoder.frame(state)
        guard let row = numbers.values(of: state, frame: frame) else { return .unnumbered(state, frame: frame) }
        guard let before else { return .new(row) }
        return RecordRow.sameFactsColumns(before, state) ? .registers(row, counted: counted) : .row(row)
    }

    /// Counts a received state whose record was stored here in `row` (`FullCoverage`), when it
    /// came with the row's timestamp: a file in history order may name a record twice, at two
    /// times, and only one of them can then count.
    private mutating func count(
        _ row: StoredRow,
        receivedTime: Int64,
        ahead: @autoclosure () -> Bool,
        up point: Int64?
    ) {
        guard let point, row.timestamp == receivedTime else { return }
        let isAhead = ahead()
        matched += 1
        if isAhead { storedAhead += 1 }
        if let seq = row.changeSeq, seq <= point {
            matchedUpToPoint += 1
            if isAhead { storedAheadUpToPoint += 1 }
        }
    }
}
