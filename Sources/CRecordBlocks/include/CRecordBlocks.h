#ifndef CRECORDBLOCKS_H
#define CRECORDBLOCKS_H

#include <sqlite3.h>

/// Registers on `db` the eponymous virtual table `record_cold`: the records a ledger keeps in
/// blocks (`record_block`, Specs/schema.md, "Record blocks"), as rows with the columns of
/// `record`. Read only. A file without `record_block` holds no block: the table is then empty.
/// Returns SQLITE_OK, or SQLite's error code.
int txledger_register_record_cold(sqlite3 *db);

#endif
