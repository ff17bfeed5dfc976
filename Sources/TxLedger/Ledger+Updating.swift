/// The result of a status update.
public struct StatusUpdateResult: Hashable, Sendable {
    /// The record after the update (unchanged if `refusal` is set).
    public let record: TransactionRecord
    public let previousStatus: TransactionStatus
    /// Why nothing changed, or `nil` if the update was applied.
    public let refusal: StatusUpdateRefusal?

    public var changed: Bool { refusal == nil }
}

extension Ledger {
    /// Moves a record's status through the lattice. A lower rank never replaces a higher one
    /// (marking a confirmed transaction pending changes nothing, and the result says so);
    /// between confirmed and failed the later update wins.
    /// - Throws: `LedgerError.notFound` if no record has this id; `LedgerError.invalidInput` for
    ///   a confirmation time outside 1970–9999 or a failure reason over its limits.
    @discardableResult
    public func updateStatus(_ id: TransactionID, to update: StatusUpdate) async throws -> StatusUpdateResult {
        try await write { store, stamps in
            var state = try Self.existing(id, in: store)
            let result = try Self.apply(update, to: &state, store, &stamps)
            if result.changed { try store.updateRegisters(state) }
            return result
        }
    }

    /// Applies `update` to `state` through the lattice, stamping it if it changes anything.
    static func apply(
        _ update: StatusUpdate,
        to state: inout RecordState,
        _ store: RecordStore,
        _ stamps: inout StampSource
    ) throws -> StatusUpdateResult {
        let update = try update.validated()
        let previous = state.status.status
        let floor = try writeFloor(state, [state.status.pending, state.status.terminal?.stamp], store)
        switch state.status.applying(update, stamp: try stamps.next(after: floor)) {
        case let .success(status):
            state.status = status
            return StatusUpdateResult(record: state.record, previousStatus: previous, refusal: nil)
        case let .failure(refusal):
            return StatusUpdateResult(record: state.record, previousStatus: previous, refusal: refusal)
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
        try await write { store, stamps in
            var state = try Self.existing(id, in: store)
            try Self.annotate(&state, register, value, unset: unset, store, &stamps)
            return state.record
        }
    }

    /// Writes `value` into `state`'s annotation `register` with a fresh stamp and stores it,
    /// unless the register already holds it.
    /// - Returns: whether it wrote.
    @discardableResult
    static func annotate<V: Hashable & Sendable>(
        _ state: inout RecordState,
        _ register: WritableKeyPath<RecordState, Register<V>?>,
        _ value: V,
        unset: V,
        _ store: RecordStore,
        _ stamps: inout StampSource
    ) throws -> Bool {
        guard (state[keyPath: register]?.value ?? unset) != value else { return false }
        let floor = try writeFloor(state, [state[keyPath: register]?.stamp], store)
        state[keyPath: register] = Register(value, stamp: try stamps.next(after: floor))
        try store.updateRegisters(state)
        return true
    }

    /// What a local write to a record must be stamped after: the registers it replaces, and its
    /// vault's clear watermark (else a clear from a clock far ahead would erase the write).
    static func writeFloor(_ state: RecordState, _ replaced: [Stamp?], _ store: RecordStore) throws -> Stamp? {
        (replaced + [try store.cachedWatermark(state.facts.value.vaultId)]).compactMap { $0 }.max()
    }

    static func existing(_ id: TransactionID, in store: RecordStore) throws -> RecordState {
        guard let state = try store.fetch(id: id) else { throw LedgerError.notFound(id.rawValue) }
        return state
    }
}
