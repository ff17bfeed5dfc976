import TxLedgerCore

extension LedgerTransaction {
    /// Writes a set-aside write's values again under this device's own stamps, as a member's
    /// new writes (Specs/devices.md, "What counts as a member's write"), and forgets it: the
    /// record if this ledger lacks it, its status through the lattice, and the annotations it
    /// carried.
    package mutating func restore(_ write: SetAsideWrite) throws {
        var state = try record(write.record).state
        if write.registers.contains("note") { try annotate(&state, \.note, write.record.note, unset: nil) }
        if write.registers.contains("labels") { try annotate(&state, \.labels, write.record.labels, unset: []) }
        if write.registers.contains("hidden") { try annotate(&state, \.hidden, write.record.hidden, unset: false) }
        try store.forgetSetAside(write.vault, id: write.id, device: write.device)
    }
}
