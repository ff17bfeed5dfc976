import TxLedgerCore

extension LedgerDatabase {
    /// Writes `header`, then the line `line` gives for each record `filter` matches (oldest
    /// first; a record it gives none for is left out), to a file at `path` readable by its
    /// owner only, from one consistent snapshot (writes meanwhile are not blocked). The file
    /// appears only once complete; an existing file there is replaced then.
    /// - Returns: how many records' lines were written.
    /// - Throws: `LedgerError.output` if the file cannot be written (nothing is left behind)
    ///   or `path` is one of the ledger's own files, `LedgerError.storage` if the ledger
    ///   cannot be read.
    package func exportLines(
        matching filter: HistoryFilter,
        to path: String,
        header: String = "",
        line: @escaping @Sendable (TransactionRecord) -> String?
    ) async throws -> Int {
        let ownFiles = self.ownFiles
        do {
            return try await read { store in
                let file = try AtomicFile(path: path, sparing: ownFiles, mode: AtomicFile.ownerOnly)
                var buffer = header
                var count = 0
                try store.forEachRecord(matching: filter) { record in
                    guard let text = line(record) else { return }
                    buffer += text
                    count += 1
                    if buffer.utf8.count >= Self.exportBufferBytes {
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

    /// How much text an export gathers before it writes.
    private static let exportBufferBytes = 1 << 16
}
