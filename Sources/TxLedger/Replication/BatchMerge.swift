/// The merge of one batch of received states into their stored rows, worked out without the
/// database, on a `MergeWorker`: the stored rows decoded, each received state joined with what
/// is stored (`RecordMerge`), and each state that changed encoded as its stored frame.
struct BatchMerge: Sendable {
    /// The states to write, each with its frame, in id order (neighbouring keys, fewer pages
    /// touched).
    private(set) var writes: [(state: RecordState, frame: [UInt8])] = []
    /// The entries the frames added to the file's tables, to write before them.
    private(set) var added: FrameEncoder.AddedEntries = ([], [])
    private(set) var report = MergeReport()
    /// Written states whose status or replacement link this merge changed: they may settle a
    /// replacement (`LedgerTransaction.mightSettle`).
    private(set) var changedLinks: [RecordState] = []

    /// - Parameters:
    ///   - batch: received states, already filtered by the vault's watermark.
    ///   - rows: the stored rows of their ids, in a file whose tables are `tables`.
    /// - Throws: `LedgerError.invalidInput` if a stored record of one of these ids belongs to
    ///   another vault; `LedgerError.unreadableDatabase` if a row does not decode.
    init(
        _ batch: [RecordState],
        stored rows: [StoredRow],
        tables: FrameTables,
        path: String,
        vault: String,
        watermark: Stamp?,
        encoder: inout FrameEncoder
    ) throws {
        var stored: [TransactionID: RecordState] = [:]
        for row in rows {
            let state = try row.decode(tables: tables, path: path)
            stored[state.id] = state
        }
        var merged: Set<TransactionID> = []
        for incoming in batch {
            let local = stored[incoming.id]
            if let local, local.facts.value.vaultId != vault {
                throw LedgerError.invalidInput(
                    field: "change set",
                    reason: "record \(incoming.id) belongs to vault '\(local.facts.value.vaultId)' here"
                )
            }
            let merge = RecordMerge(local: local, incoming: incoming, watermark: watermark)
            if let result = merge.result {
                if local?.status != result.status || local?.replacedID != result.replacedID {
                    changedLinks.append(result)
                }
                merged.insert(incoming.id)
                stored[incoming.id] = result  // the same id again in this batch merges into this
            }
            report.add(merge.report)
        }
        writes = merged.sorted().map { id in
            let state = stored[id]!
            return (state, encoder.frame(state))
        }
        added = encoder.takeAddedEntries()
    }
}
