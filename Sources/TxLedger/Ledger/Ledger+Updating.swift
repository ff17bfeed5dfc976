import TxLedgerCore

extension Ledger {
    /// Moves a record's status through the lattice. A lower rank never replaces a higher one
    /// (marking a confirmed transaction pending changes nothing, and the result says so);
    /// between confirmed and failed the later update wins.
    /// - Throws: `LedgerError.notFound` if no record has this id; `LedgerError.invalidInput` for
    ///   a confirmation time outside 1970–9999 or a failure reason over its limits.
    @discardableResult
    public func updateStatus(_ id: TransactionID, to update: StatusUpdate) async throws -> StatusUpdateResult {
        try await write { transaction in
            var state = try transaction.existing(id)
            let result = try transaction.apply(update, to: &state)
            if result.changed {
                try transaction.store.updateRegisters(state)
                try transaction.settleReplacements(of: state)
            }
            return result
        }
    }

    /// Sets or clears (`nil`) the user's note on a record.
    @discardableResult
    public func setNote(_ note: String?, for id: TransactionID) async throws -> TransactionRecord {
        let note = try TextField.note.validate(note, field: "note")
        return try await annotate(id, \.note, note, unset: nil)
    }

    /// Replaces the user's labels on a record (a set: sorted, duplicates dropped).
    @discardableResult
    public func setLabels(_ labels: [String], for id: TransactionID) async throws -> TransactionRecord {
        let labels = try TransactionRecord.normalizedLabels(labels)
        return try await annotate(id, \.labels, labels, unset: [])
    }

    /// Hides a record from default listings, or shows it again.
    @discardableResult
    public func setHidden(_ hidden: Bool, for id: TransactionID) async throws -> TransactionRecord {
        try await annotate(id, \.hidden, hidden, unset: false)
    }

    /// Writes a last-writer-wins annotation register with a fresh stamp, unless it already
    /// holds `value` (or was never written and `value` is its unset value).
    private func annotate<V: Hashable & Sendable>(
        _ id: TransactionID,
        _ register: WritableKeyPath<RecordState, Register<V>?> & Sendable,
        _ value: V,
        unset: V
    ) async throws -> TransactionRecord {
        try await write { transaction in
            var state = try transaction.existing(id)
            try transaction.annotate(&state, register, value, unset: unset)
            return state.record
        }
    }
}
