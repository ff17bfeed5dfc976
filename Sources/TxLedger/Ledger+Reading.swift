extension Ledger {
    /// The record with this id, if any.
    public func transaction(id: TransactionID) async throws -> TransactionRecord? {
        try await read { store in try store.fetch(id: id)?.record }
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

    /// A page of records, newest first (by broadcast time, then id).
    /// - Parameters:
    ///   - vault: one vault, or every vault when `nil`.
    ///   - includeHidden: whether hidden records are listed.
    ///   - limit: page size, at least 1.
    ///   - cursor: the `nextCursor` of the previous page.
    public func list(vault: String? = nil, includeHidden: Bool = false, limit: Int = 50,
                     after cursor: PageCursor? = nil) async throws -> Page {
        guard limit >= 1 else { throw LedgerError.invalidInput(field: "limit", reason: "must be at least 1") }
        let fetchLimit = limit == Int.max ? limit : limit + 1
        let states = try await read { store in
            try store.page(vault: vault, includeHidden: includeHidden, after: cursor, limit: fetchLimit)
        }
        let items = states.prefix(limit).map(\.record)
        return Page(items: Array(items), nextCursor: states.count > limit ? items.last.map(PageCursor.init(after:)) : nil)
    }
}
