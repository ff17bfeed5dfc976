#include "CSQLiteDefensive.h"

int txledger_sqlite3_enable_defensive(sqlite3 *db) {
    int enabled = 0;
    int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, &enabled);
    if (rc != SQLITE_OK) return rc;
    return enabled ? SQLITE_OK : SQLITE_ERROR;
}
