import TxLedgerCore

/// Settling replacements (Specs/status-tracking.md, "Replacements"): a speed-up or cancel
/// names the transaction it replaces (`replaces`), and both use one nonce, so at most one of
/// them is mined. Once either is proven confirmed, the other fails, proven, "replaced by" the
/// one that confirmed.
extension LedgerTransaction {
    /// Settles the links of `state` both ways, after a write that may have confirmed it or
    /// brought its link: to the record it replaces, and from the records that replace it.
    package mutating func settleReplacements(of state: RecordState) throws {
        if let original = try state.replacedID.flatMap({ try store.fetch(id: $0) }) {
            try settle(original: original, replacement: state)
        }
        guard state.isProvenConfirmed || state.status.terminal == nil else { return }
        for replacement in try store.replacements(of: state.id) {
            try settle(original: state, replacement: replacement)
        }
    }

    /// Whether `state` may change a linked record: it has a link, or it is confirmed in a file
    /// that holds links.
    package func mightSettle(_ state: RecordState) throws -> Bool {
        try mightSettle(state.settlingLink)
    }

    /// Whether a state whose `settlingLink` is `link` may change a linked record.
    package func mightSettle(_ link: SettlingLink?) throws -> Bool {
        switch link {
        case .replaces: true
        case .provenConfirmed: try store.anyReplacements()
        case nil: false
        }
    }

    /// One link: whichever of the two is proven confirmed, the other, if nothing about it is
    /// proven yet, fails replaced by it.
    private mutating func settle(original: RecordState, replacement: RecordState) throws {
        if replacement.isProvenConfirmed {
            try fail(original, replacedBy: replacement)
        } else if original.isProvenConfirmed {
            try fail(replacement, replacedBy: original)
        }
    }

    private mutating func fail(_ state: RecordState, replacedBy winner: RecordState) throws {
        guard state.status.terminal == nil, let hash = winner.facts.value.txHash else { return }
        var state = state
        let update = StatusUpdate.failed(reason: "replaced by \(hash)", replacedBy: hash)
        if try apply(update, to: &state).changed { try store.updateRegisters(state) }
    }
}

/// What of a record may settle a replacement once it is written (`LedgerTransaction.mightSettle`).
package enum SettlingLink: Sendable {
    /// It replaces another record.
    case replaces
    /// It is proven confirmed: it settles the records that replace it, if the file holds any.
    case provenConfirmed
}

extension RecordState {
    /// Whether a receipt, a final status or someone's word proved it confirmed.
    var isProvenConfirmed: Bool { status.terminal?.value.status == .confirmed }

    /// What of it may settle a replacement: its link first; `nil` if nothing can.
    package var settlingLink: SettlingLink? {
        replacedID != nil ? .replaces : isProvenConfirmed ? .provenConfirmed : nil
    }
}
