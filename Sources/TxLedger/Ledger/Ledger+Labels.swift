import Foundation
import TxLedgerCore

extension Ledger {
    /// Largest label file read: a wallet's labels are far smaller.
    static let maxLabelFileBytes = 64 << 20

    /// Writes the notes of `vault`'s transactions on Bitcoin-like chains as a BIP-329 label
    /// file (JSON Lines, Specs/labels.md), oldest first, for Sparrow, BTCPay or another wallet.
    /// A transaction without a note is labelled with its labels, joined by `, `; one with
    /// neither gets no line. Other chains' transactions have no BIP-329 form and get none.
    /// The file appears only once complete.
    /// - Returns: how many lines were written.
    /// - Throws: `LedgerError.output` if the file cannot be written.
    @discardableResult
    public func exportLabels(vault: String, to path: String) async throws -> Int {
        try TextField.identifier.validate(vault, field: "vault")
        return try await database.exportLines(
            matching: HistoryFilter(vault: vault, includeHidden: true, includeReplaced: true),
            to: path
        ) { record in
            guard record.chain.family == .utxo, let hash = record.txHash,
                let label = record.note ?? (record.labels.isEmpty ? nil : record.labels.joined(separator: ", "))
            else { return nil }
            return BIP329Line.transaction(hash, label: label)
        }
    }

    /// Applies a BIP-329 label file (Specs/labels.md) to `vault`: each `tx` line's label
    /// becomes the note of the transaction with that hash on a Bitcoin-like chain. Lines of
    /// what TxLedger does not store are ignored. The file is read and checked whole first: a
    /// malformed one changes nothing; then every note is written in one transaction.
    /// - Throws: `LedgerError.invalidInput` (field `labels`) naming the first bad line, or
    ///   saying that the file cannot be read.
    public func importLabels(from path: String, vault: String) async throws -> LabelImport {
        try TextField.identifier.validate(vault, field: "vault")
        let lines = try await DedicatedThread.run { () throws -> [BIP329Line] in
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw LedgerError.invalidInput(
                    field: "labels",
                    reason: "the file '\(path)' does not exist or cannot be read"
                )
            }
            defer { try? handle.close() }
            let data = try handle.read(upToCount: Self.maxLabelFileBytes + 1) ?? Data()
            guard data.count <= Self.maxLabelFileBytes else {
                throw LedgerError.invalidInput(
                    field: "labels",
                    reason: "the file is larger than \(Self.maxLabelFileBytes >> 20) MiB"
                )
            }
            return try BIP329Line.lines(of: data)
        }
        return try await write { transaction in try transaction.applyLabels(lines, vault: vault) }
    }
}
