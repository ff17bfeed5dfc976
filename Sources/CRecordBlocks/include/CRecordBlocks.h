#ifndef CRECORDBLOCKS_H
#define CRECORDBLOCKS_H

#include <sqlite3.h>

/// Registers on `db` the eponymous virtual table `record_cold`: the records a ledger keeps in
/// blocks (`record_block`, Specs/schema.md, "Record blocks"), as rows with the columns of
/// `record`. Read only. A file without `record_block` holds no block: the table is then empty.
/// Returns SQLITE_OK, or SQLite's error code.
int txledger_register_record_cold(sqlite3 *db);

/// The lookup's statement, of one parameter, the key of an id: the run that would hold it, its
/// `entries` and its `first`. A caller may prepare it itself (and keep it, as GRDB's cached
/// statements are kept) and pass it to `txledger_record_block_slot`, or read the run.
extern const char *const txledger_record_block_slot_sql;

/// Where the directory of record blocks (`record_block_ids`, Specs/schema.md, "Migration `v17:
/// the directory in runs`") says the record `id` (16 bytes) is: its block's number and its slot.
/// `*statement` is the statement of `txledger_record_block_slot_sql` on `db`, or NULL: it is then
/// prepared, for the caller to keep for the next lookups and finalize. It is left reset.
/// Returns SQLITE_ROW with `*block` and `*slot` set, SQLITE_DONE if the directory does not name
/// `id`, SQLITE_CORRUPT if the run that would hold it is not a whole number of entries, or
/// SQLite's error code.
int txledger_record_block_slot(
    sqlite3 *db, sqlite3_stmt **statement, const void *id, sqlite3_int64 *block, int *slot
);

#endif
