import TxLedgerCore

extension Ledger {
    /// Writes the records `filter` matches to a CSV file at `path`, oldest first, from one
    /// consistent snapshot (writes meanwhile are not blocked). The file appears only once it is
    /// complete; an existing file there is replaced then. `Specs/queries.md` gives the columns
    /// of each format; a tax tool's format has no line for a signature request, nor for a
    /// failed transaction without a fee.
    /// - Returns: how many lines of records were written.
    /// - Throws: `LedgerError.output` if the file cannot be written (nothing is left behind) or
    ///   `path` is one of the ledger's own database files,
    ///   `LedgerError.storage` if the ledger cannot be read.
    @discardableResult
    public func exportCSV(_ filter: HistoryFilter, to path: String, format: CSVFormat = .txledger) async throws -> Int {
        try await database.exportLines(matching: filter, to: path, header: HistoryCSV.line(format.columns)) {
            format.fields($0).map(HistoryCSV.line)
        }
    }
}
