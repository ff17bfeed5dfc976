import Foundation

/// One record as the CRDT sees it: every register with its stamp.
///
/// - `facts`: written once per replica that records the transaction; between replicas that
///   wrote different facts for one id, the greater stamp wins (a deterministic rule).
/// - `status`: the status lattice (`StatusRegister`).
/// - `lastCheckedAt`: joins as a maximum among the checks of the winning facts (ordered by
///   facts stamp, then instant), so that it is erased together with the facts by a clear.
/// - `note`, `labels`, `hidden`: independent last-writer-wins registers (absent until written).
/// - `newerRegisters`: registers that a newer version defines, by block number, each a
///   last-writer-wins register of its fields (`RecordState+NewerFields.swift`).
/// - `cleared`: the facts a clear erased (`ClearMark`); the record is visible while its facts
///   are later than the mark's `through`.
///
/// See `Specs/crdt.md`.
package struct RecordState: Hashable, Sendable {
    package var facts: Register<TransactionFacts>
    package var status: StatusRegister
    package var lastCheckedAt: Date?
    /// The registers most records lack, out of line (`nil` while every one is absent): a state
    /// is moved from thread to thread and array to array on its way into a store, and these
    /// held more than a quarter of its bytes.
    private var annotations: OutOfLine<Annotations>?

    private struct Annotations: Hashable, Sendable {
        var note: Register<String?>?
        var labels: Register<[String]>?
        var hidden: Register<Bool>?
        var newerRegisters: [Int: Register<NewerFields>] = [:]
        var cleared: ClearMark?

        var isEmpty: Bool { note == nil && labels == nil && hidden == nil && newerRegisters.isEmpty && cleared == nil }
    }

    package var note: Register<String?>? {
        get { annotations?.value.note }
        set { annotate { $0.note = newValue } }
    }
    package var labels: Register<[String]>? {
        get { annotations?.value.labels }
        set { annotate { $0.labels = newValue } }
    }
    package var hidden: Register<Bool>? {
        get { annotations?.value.hidden }
        set { annotate { $0.hidden = newValue } }
    }
    package var newerRegisters: [Int: Register<NewerFields>] {
        get { annotations?.value.newerRegisters ?? [:] }
        set { annotate { $0.newerRegisters = newValue } }
    }
    package var cleared: ClearMark? {
        get { annotations?.value.cleared }
        set { annotate { $0.cleared = newValue } }
    }

    /// Changes the annotations.
    private mutating func annotate(_ change: (inout Annotations) -> Void) {
        var changed = annotations?.value ?? Annotations()
        change(&changed)
        annotations = Self.outOfLine(changed)
    }

    /// `annotations` kept out of line, or `nil` when none is there (so that equal states
    /// compare and hash alike).
    private static func outOfLine(_ annotations: Annotations) -> OutOfLine<Annotations>? {
        annotations.isEmpty ? nil : OutOfLine(annotations)
    }

    package var id: TransactionID { facts.value.id }

    /// The state of a record first written locally with `stamp`: the facts, and the status and
    /// annotations the input carries, all stamped by that one write.
    package init(recording record: TransactionRecord, stamp: Stamp) {
        facts = Register(record.facts, stamp: stamp)
        let status = StatusRegister()
        switch status.applying(record.statusUpdate, stamp: stamp) {
        case let .success(initial): self.status = initial
        case .failure: self.status = status  // broadcasted: the bottom, nothing to write
        }
        lastCheckedAt = record.lastCheckedAt
        annotations = Self.outOfLine(
            Annotations(
                note: record.note.map { Register($0, stamp: stamp) },
                labels: record.labels.isEmpty ? nil : Register(record.labels, stamp: stamp),
                hidden: record.hidden ? Register(true, stamp: stamp) : nil
            )
        )
    }

    init(
        facts: Register<TransactionFacts>,
        status: StatusRegister,
        lastCheckedAt: Date?,
        note: Register<String?>?,
        labels: Register<[String]>?,
        hidden: Register<Bool>?,
        newerRegisters: [Int: Register<NewerFields>] = [:],
        cleared: ClearMark? = nil
    ) {
        self.facts = facts
        self.status = status
        self.lastCheckedAt = lastCheckedAt
        annotations = Self.outOfLine(
            Annotations(note: note, labels: labels, hidden: hidden, newerRegisters: newerRegisters, cleared: cleared)
        )
    }

    /// The join of two states of the same record: register by register.
    package func joined(with other: RecordState) -> RecordState {
        precondition(id == other.id, "only states of one record join")
        return RecordState(
            facts: facts.joined(with: other.facts),
            status: status.joined(with: other.status),
            lastCheckedAt: facts.stamp == other.facts.stamp
                ? [lastCheckedAt, other.lastCheckedAt].compactMap { $0 }.max()
                : (facts.stamp > other.facts.stamp ? lastCheckedAt : other.lastCheckedAt),
            note: note.joined(with: other.note),
            labels: labels.joined(with: other.labels),
            hidden: hidden.joined(with: other.hidden),
            newerRegisters: newerRegisters.merging(other.newerRegisters) { $0.joined(with: $1) },
            cleared: cleared.joined(with: other.cleared)
        )
    }

    package var record: TransactionRecord { TransactionRecord(state: self) }

    /// Whether a clear that had seen these facts cleared the record (its `ClearMark`).
    package var isCleared: Bool { cleared?.clears(facts.stamp) == true }

    /// Whether the record is visible: no clear had seen its facts, and they are later than the
    /// vault's clear watermark (of an older version's clear).
    package func isVisible(clearedThrough watermark: Stamp?) -> Bool {
        !isCleared && (watermark.map { facts.stamp > $0 } ?? true)
    }

    /// This state after a vault clear at `watermark`: every register stamped at or before it is
    /// erased, but the clear mark. If the facts are erased but a later register survives, the state remains,
    /// invisible, so that the later register still joins (see Specs/crdt.md, "Clearing a vault").
    /// `nil` when nothing survives.
    package consuming func filtered(clearedThrough watermark: Stamp?) -> RecordState? {
        guard let watermark else { return self }
        let factsSurvive = facts.stamp > watermark
        var result = keeping { $0 > watermark }
        // A clear mark is not erased by a watermark: it joins by what it had seen, not by its
        // stamp, and erasing it by stamp would not commute with that join. Nor is the chain's
        // answer, which outranks every stamp: of its rivals, the chain's answers stay too.
        result.cleared = cleared
        if let terminal = status.terminal, terminal.value.checkedOnChain {
            result.status = StatusRegister(
                pending: result.status.pending,
                terminal: terminal,
                inferred: result.status.inferred,
                rival: status.rival.flatMap { $0.value.checkedOnChain || $0.stamp > watermark ? $0 : nil }
            )
        }
        if !factsSurvive { result.lastCheckedAt = nil }
        return factsSurvive || result.hasRegisterBesideFacts ? result : nil
    }

    /// This state with only the registers (besides the facts, kept as they are) whose stamp
    /// `counts` accepts.
    package func keeping(_ counts: (Stamp) -> Bool) -> RecordState {
        func keep<V>(_ register: Register<V>?) -> Register<V>? { register.flatMap { counts($0.stamp) ? $0 : nil } }
        return RecordState(
            facts: facts,
            status: StatusRegister(
                pending: status.pending.flatMap { counts($0) ? $0 : nil },
                terminal: keep(status.terminal),
                inferred: keep(status.inferred),
                rival: keep(status.rival)
            ),
            lastCheckedAt: lastCheckedAt,
            note: keep(note),
            labels: keep(labels),
            hidden: keep(hidden),
            newerRegisters: newerRegisters.filter { counts($0.value.stamp) },
            cleared: cleared.flatMap { counts($0.stamp) ? $0 : nil }
        )
    }

    /// Whether a register other than the facts holds a value.
    var hasRegisterBesideFacts: Bool {
        status.pending != nil || status.terminal != nil || status.inferred != nil || note != nil || labels != nil
            || hidden != nil || !newerRegisters.isEmpty || cleared != nil
    }
}

extension RecordState {
    /// Every stamp the state carries, a newer version's registers' included.
    package var stamps: [Stamp] {
        var stamps: [Stamp] = []
        forEachStamp { stamps.append($0) }
        return stamps
    }

    /// Calls `body` with each stamp of `stamps`, in its order, without making the array (a
    /// merge looks at every received record's stamps).
    package func forEachStamp(_ body: (Stamp) -> Void) {
        body(facts.stamp)
        status.forEachStamp(body)
        if let stamp = note?.stamp { body(stamp) }
        if let stamp = labels?.stamp { body(stamp) }
        if let stamp = hidden?.stamp { body(stamp) }
        if let stamp = cleared?.stamp { body(stamp) }
        for register in newerRegisters.values { body(register.stamp) }
    }
}

extension RecordState {
    /// The id of the record this one replaces (its `replaces` fact: a speed-up or cancel of
    /// a transaction of the same vault and chain), if it names one.
    package var replacedID: TransactionID? {
        let facts = facts.value
        // Most records have no extra fact: no key hashed then.
        guard !facts.extras.isEmpty else { return nil }
        return facts.extras[RecordField.replaces.key].flatMap {
            try? TransactionID.forTransaction(vault: facts.vaultId, chain: facts.chain, hash: $0)
        }
    }
}
