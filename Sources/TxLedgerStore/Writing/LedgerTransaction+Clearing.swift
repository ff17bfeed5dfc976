import TxLedgerCore

extension LedgerTransaction {
    /// Clears `vault` here and on every replica this write reaches (crdt.md, "Clearing a
    /// vault"): every record visible here is marked with the facts stamp it holds, under one
    /// fresh stamp. Records and facts this device has not seen carry no mark and stay visible
    /// everywhere, whatever the clocks.
    /// - Returns: how many records were cleared.
    package mutating func clear(vault: String) throws -> Int {
        let stamp = try stamps.next(after: try store.cachedWatermark(vault))
        var visible: [RecordState] = []
        try store.forEachVisible(vault: vault) { visible.append($0) }
        for var state in visible {
            state.cleared = ClearMark(through: state.facts.stamp, stamp: stamp)
            try store.updateRegisters(state)
        }
        try store.noteCleared(vault: vault, now: stamps.wallClock().millis)
        return visible.count
    }

    /// Restores the cleared records `ids` of `vault` (every one it holds when `ids` is `nil`):
    /// their facts are written again under a fresh stamp, after the facts the clear had seen,
    /// a write that reaches every device as any other does.
    /// - Returns: the records restored, visible again.
    /// - Throws: `LedgerError.notFound` naming an id this ledger holds no cleared record of in
    ///   `vault` (nothing is restored then).
    package mutating func restoreCleared(vault: String, ids: [TransactionID]?) throws -> [TransactionRecord] {
        let now = stamps.wallClock().millis
        try store.purgeCleared(before: now - RecordStore.restorableMillis)
        let wanted = try ids ?? store.clearedRecords(vault: vault, notBefore: 0).map(\.record.id)
        var cleared = try wanted.map { id in
            guard let state = try store.fetchCleared(id: id), state.facts.value.vaultId == vault else {
                throw LedgerError.notFound(id.rawValue)
            }
            return state
        }
        let watermark = try store.cachedWatermark(vault)
        for index in cleared.indices {
            let state = cleared[index]
            let floor = [state.facts.stamp, state.cleared?.through, watermark].compactMap { $0 }.max()
            cleared[index].facts = state.facts.restamped(try stamps.next(after: floor))
            try store.save(cleared[index])
        }
        return cleared.map(\.record)
    }
}
