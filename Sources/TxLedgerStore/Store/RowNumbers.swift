import TxLedgerCore

/// What makes a record's row of its state beyond its frame (`RecordRow.values`), taken from a
/// write transaction's store (`RecordStore.rowNumbers(vault:)`) so that a merge's worker can
/// make the rows of one vault without the database.
package struct RowNumbers: Sendable {
    /// The vault's number in the `vault` table.
    let vault: Int64
    /// The numbers in the `chain` table of every chain the file held when the merge began,
    /// and of those the store numbered since.
    let chains: [String: Int64]
    /// The write transaction's change number.
    let changeSeq: Int64
    /// The vault's clear watermark: a record whose facts are not later is stored erased.
    package let watermark: Stamp?

    /// The row of `state`, a record of this vault, stored as `frame`; `nil` if its chain has
    /// no number yet.
    package func values(of state: RecordState, frame: [UInt8]) -> RecordRow.Values? {
        guard let chain = chains[state.facts.value.chain.id] else { return nil }
        return RecordRow.values(
            of: state,
            frame: frame,
            vault: vault,
            chain: chain,
            erased: !state.isVisible(clearedThrough: watermark),
            changeSeq: changeSeq
        )
    }
}
