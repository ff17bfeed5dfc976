import TxLedgerCore

/// One write transaction on a ledger: the store it writes through and the stamps it issues.
/// The algorithms that change records are its methods (recording, status updates, annotations
/// here; merging change sets in `Replication/`); `Ledger.write` opens one per call, runs them,
/// and commits the clock and the change number with what they wrote.
package struct LedgerTransaction {
    package let store: RecordStore
    package var stamps: StampSource

    /// The visible record with this id.
    /// - Throws: `LedgerError.notFound` if there is none.
    package func existing(_ id: TransactionID) throws -> RecordState {
        guard let state = try store.fetch(id: id) else { throw LedgerError.notFound(id.rawValue) }
        return state
    }

    /// A fresh stamp for a local write to `state` that replaces `replaced`: after those
    /// registers' stamps and after the vault's clear watermark (else a clear from a clock far
    /// ahead would erase the write).
    mutating func stamp(writing state: RecordState, replacing replaced: [Stamp?]) throws -> Stamp {
        let floor = (replaced + [try store.cachedWatermark(state.facts.value.vaultId)]).compactMap { $0 }.max()
        return try stamps.next(after: floor)
    }
}
