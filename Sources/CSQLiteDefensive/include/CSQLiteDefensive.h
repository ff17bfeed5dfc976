#ifndef CSQLITEDEFENSIVE_H
#define CSQLITEDEFENSIVE_H

#include <sqlite3.h>

/// sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL), which Swift cannot call
/// (a variadic function): the connection refuses the features that can corrupt a database file
/// (writable_schema, journal_mode=OFF, direct writes to shadow tables). Returns SQLITE_OK, or
/// SQLite's error code.
int txledger_sqlite3_enable_defensive(sqlite3 *db);

#endif
