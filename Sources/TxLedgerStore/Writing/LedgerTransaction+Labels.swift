import TxLedgerCore

extension LedgerTransaction {
    /// Applies BIP-329 lines (Specs/labels.md) to `vault`: each `tx` line's label becomes the
    /// note of the transactions with that hash on a Bitcoin-like chain of the vault; other
    /// lines are counted as ignored.
    package mutating func applyLabels(_ lines: [BIP329Line], vault: String) throws -> LabelImport {
        var done = LabelImport()
        for line in lines {
            guard line.type == "tx", let label = line.label else {
                done.ignored += 1
                continue
            }
            let matches = try store.fetch(hashes: [line.ref.lowercased()])
                .filter { $0.facts.value.vaultId == vault && $0.facts.value.chain.family == .utxo }
            if matches.isEmpty { done.unmatched += 1 }
            for var state in matches {
                if try annotate(&state, \.note, String?(label), unset: nil) {
                    done.applied += 1
                } else {
                    done.unchanged += 1
                }
            }
        }
        return done
    }
}
