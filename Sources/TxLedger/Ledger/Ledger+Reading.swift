import TxLedgerCore

extension Ledger {
    /// The record with this id, if any.
    public func transaction(id: TransactionID) async throws -> TransactionRecord? {
        try await read { store in try store.fetch(id: id)?.record }
    }

    /// The send or swap with hash `hash` on `chain` in vault `vault`, if any: the lookup for a
    /// callback that has those three (a user may send between two of their own vaults, so the
    /// hash alone can name two records).
    /// - Throws: `LedgerError.invalidInput` for a hash that is not one of the chain's.
    public func transaction(vault: String, chain: Chain, hash: String) async throws -> TransactionRecord? {
        try await transaction(id: try TransactionID.forTransaction(vault: vault, chain: chain, hash: hash))
    }

    /// The records with this transaction hash, in any vault or chain. The hash may be typed in
    /// any case, with or without `0x`.
    public func transactions(hash: String) async throws -> [TransactionRecord] {
        let lower = hash.lowercased()
        let bare = lower.hasPrefix("0x") ? String(lower.dropFirst(2)) : lower
        let spellings = Array(Set([hash, lower, "0x" + bare, bare, bare.uppercased()]))
        return try await read { store in try store.fetch(hashes: spellings).map(\.record) }
    }

    /// The one record an id or a transaction hash designates (what a person types in the CLI).
    /// - Throws: `LedgerError.notFound`, or `LedgerError.ambiguous` when the hash is in several vaults.
    public func resolve(_ idOrHash: String) async throws -> TransactionRecord {
        if let id = TransactionID(idOrHash), let record = try await transaction(id: id) {
            return record
        }
        let matches = try await transactions(hash: idOrHash)
        guard let first = matches.first else { throw LedgerError.notFound(idOrHash) }
        guard matches.count == 1 else { throw LedgerError.ambiguous(hash: idOrHash, ids: matches.map(\.id)) }
        return first
    }

    /// A page of the records `filter` matches, newest first (by broadcast time, then id).
    ///
    /// Keyset pagination: pass the page's `nextCursor` back for the next one, which costs what
    /// the first page costs; records arriving meanwhile are neither repeated nor skipped among
    /// those already there. Compact mode ("see more") is a page of the top N and its `hasMore`.
    /// - Parameters:
    ///   - filter: tab, vault and filters; the default lists every visible record.
    ///   - limit: page size, at least 1.
    ///   - cursor: the `nextCursor` of the previous page with the same filter.
    public func list(
        _ filter: HistoryFilter = HistoryFilter(),
        limit: Int = 50,
        after cursor: PageCursor? = nil
    ) async throws -> Page {
        try Self.checkLimit(limit)
        return try await read { store in try store.page(filter, after: cursor, limit: limit) }
    }

    /// How many records each tab holds under `filter` (whose own tab is ignored).
    public func tabCounts(_ filter: HistoryFilter = HistoryFilter()) async throws -> HistoryTabCounts {
        try await read { store in try store.tabCounts(filter) }
    }

    static func checkLimit(_ limit: Int) throws {
        guard limit >= 1 else { throw LedgerError.invalidInput(field: "limit", reason: "must be at least 1") }
    }
}
