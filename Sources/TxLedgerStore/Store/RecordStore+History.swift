import Foundation
import GRDB
import TxLedgerCore

/// The reads behind history screens: filtered keyset pages, counts per tab, streaming exports.
extension RecordStore {
    /// Up to `limit` records matching `filter`, newest first (`timestamp`, then `id`,
    /// descending), after `cursor`; `nextCursor` is set when more follow.
    package func page(_ filter: HistoryFilter, after cursor: PageCursor?, limit: Int) throws -> Page {
        // One row beyond the page tells whether another page follows.
        let (sql, arguments) = try pageQuery(filter, after: cursor, limit: limit == Int.max ? limit : limit + 1)
        var states: [RecordState] = []
        try forEach(sql, arguments) { states.append($0) }
        let items = states.prefix(limit).map(\.record)
        return Page(
            items: Array(items),
            nextCursor: states.count > limit ? items.last.map(PageCursor.init(after:)) : nil
        )
    }

    /// The SQL of a page: the `record_by_*_time` indexes give its order, so it reads only the
    /// rows it returns plus those the filters skip (Specs/queries.md, "Indexes").
    func pageQuery(
        _ filter: HistoryFilter,
        after cursor: PageCursor?,
        limit: Int
    ) throws -> (String, StatementArguments) {
        var conditions = try conditions(filter)
        if let cursor {
            // The bound on `time` alone is what a block's reader takes (a row value is not
            // passed to a virtual table).
            conditions.add(
                "record.time <= ? AND (record.time, record.id) < (?, ?)",
                [cursor.timestampMillis, cursor.timestampMillis, Data(cursor.id.bytes)]
            )
        }
        let query = RecordQuery.stored(
            where: conditions.condition,
            conditions.arguments,
            tail: "ORDER BY record.time DESC, record.id DESC LIMIT ?",
            [limit]
        )
        return (query.sql, query.arguments)
    }

    /// How many records match `filter` in each tab (its own tab ignored).
    /// A filter on the columns `record_count` keeps is answered from it, without reading a
    /// record (Specs/queries.md, "Counts").
    package func tabCounts(_ filter: HistoryFilter) throws -> HistoryTabCounts {
        let conditions = try conditions(filter, byTab: false)
        let (sql, arguments): (String, StatementArguments)
        if HistoryConditions.onlyCountedColumns(filter) {
            sql = "SELECT kind, SUM(count) FROM record_count AS record WHERE \(conditions.condition) GROUP BY kind"
            arguments = conditions.arguments
        } else {
            let query = RecordQuery(select: "record.kind AS kind", where: conditions.condition, conditions.arguments)
            (sql, arguments) = ("SELECT kind, COUNT(*) FROM (\(query.sql)) GROUP BY kind", query.arguments)
        }
        let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
        var counts: [TransactionKind: Int] = [:]
        for row in rows {
            if let kind = TransactionKind.allCases.first(where: { RecordRow.kindCode($0) == row[0] }) {
                counts[kind] = row[1]
            }
        }
        return HistoryTabCounts(byKind: counts)
    }

    /// Calls `body` with every record matching `filter`, oldest first, one row at a time.
    package func forEachRecord(matching filter: HistoryFilter, _ body: (TransactionRecord) throws -> Void) throws {
        let conditions = try conditions(filter)
        try forEach(
            RecordQuery.stored(
                where: conditions.condition,
                conditions.arguments,
                tail: "ORDER BY record.time, record.id"
            )
        ) { try body($0.record) }
    }

    private func conditions(_ filter: HistoryFilter, byTab: Bool = true) throws -> HistoryConditions {
        let ids = filter.chains.map(\.id).sorted()
        let numbers =
            ids.isEmpty
            ? []
            : try Int64.fetchAll(
                db,
                sql:
                    "SELECT num FROM chain WHERE id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", ")))",
                arguments: StatementArguments(ids)
            )
        return HistoryConditions(filter, byTab: byTab, chainNumbers: numbers)
    }
}
