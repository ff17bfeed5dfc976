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
        let ownFiles = database.ownFiles
        do {
            return try await read { store in
                let file = try AtomicFile(path: path, sparing: ownFiles, mode: AtomicFile.ownerOnly)
                var buffer = HistoryCSV.line(format.columns)
                var count = 0
                try store.forEachRecord(matching: filter) { record in
                    guard let fields = format.fields(record) else { return }
                    buffer += HistoryCSV.line(fields)
                    count += 1
                    if buffer.utf8.count >= 1 << 16 {
                        try file.write(Array(buffer.utf8))
                        buffer = ""
                    }
                }
                try file.write(Array(buffer.utf8))
                try file.commit()
                return count
            }
        } catch let failure as AtomicFile.Failure {
            throw LedgerError.output(path: path, reason: failure.reason, underlying: failure.underlying)
        }
    }
}
