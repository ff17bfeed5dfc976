#ifndef CRECORDBLOCKS_H
#define CRECORDBLOCKS_H

#include <sqlite3.h>

/// Registers on `db` the eponymous virtual table `record_cold`: the records a ledger keeps in
/// blocks (`record_block`, Specs/schema.md, "Record blocks"), as rows with the columns of
/// `record`. Read only. A file without `record_block` holds no block: the table is then empty.
/// Returns SQLITE_OK, or SQLite's error code.
int txledger_register_record_cold(sqlite3 *db);

/// Where the directory of record blocks (`record_block_ids`, Specs/schema.md, "Migration `v17:
/// the directory in runs`") says the record `id` (16 bytes) is: its block's number and its slot.
/// `*statement` is the lookup's statement, prepared on the first call (pass NULL then) and kept
/// for the next; the caller finalizes it. Returns SQLITE_ROW with `*block` and `*slot` set,
/// SQLITE_DONE if the directory does not name `id`, SQLITE_CORRUPT if the run that would hold it
/// is not a whole number of entries, or SQLite's error code.
int txledger_record_block_slot(
    sqlite3 *db, sqlite3_stmt **statement, const void *id, sqlite3_int64 *block, int *slot
);

#endif
