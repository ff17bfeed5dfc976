// `record_cold`: a read-only eponymous virtual table over `record_block` (Specs/schema.md,
// "Record blocks"). Each block holds up to 1024 settled records of one vault in history order;
// the table gives them as rows with `record`'s columns, so that a query reads `record` and
// `record_cold` with the same conditions (`RecordQuery` in TxLedgerStore). The file is hostile
// input (another replica's file is read too): every length, count and value of a block is
// checked before it is used, and a block that fails is an error, never a read out of bounds.

#include "CRecordBlocks.h"

#include <stdint.h>
#include <string.h>

enum {
    COL_NUM, COL_ID, COL_VAULT, COL_TIME, COL_KIND, COL_CHAIN, COL_REPLACED, COL_STATUS,
    COL_HIDDEN, COL_ERASED, COL_CHANGE_SEQ, COL_STATE, COL_DISPUTED
};

#define BLOCK_FORMAT 1
#define MAX_BLOCK_ROWS 1024
#define ID_BYTES 16
// id, time, chain, kind, status, hidden
#define ROW_FIXED (ID_BYTES + 8 + 8 + 3)
// A directory entry: id, block number (u32), slot (u16).
#define ENTRY_BYTES (ID_BYTES + 4 + 2)

enum { PLAN_ALL = 0, PLAN_VAULT = 1, PLAN_ID = 2 };
#define PLAN_MASK 3
#define PLAN_DESCENDING 4

// A block's columns, its superseded bits (NULL when none is) among them.
#define BLOCK_COLUMNS \
    "b.num, b.vault, b.change_seq, b.count, s.bits, b.rows, b.oldest, b.newest FROM main.record_block b" \
    " LEFT JOIN main.record_block_superseded s ON s.block = b.num"

typedef struct {
    sqlite3_vtab base;
    sqlite3 *db;
} ColdTable;

/// One walk through blocks in order: a vault's, or one block (the id plan).
typedef struct {
    sqlite3_stmt *blocks;
    // The current block: pointers into `blocks`' current row, valid until it steps.
    int inBlock;
    sqlite3_int64 blockNum, vault, blockSeq, oldest, newest;
    const unsigned char *rows;
    int rowsLength;
    const unsigned char *superseded;
    int count;
    int slot;
    // The row at `slot`: in `rows`, or in `ownRow` (the id plan reads one row alone).
    const unsigned char *row;
    int rowLength;
    unsigned char *ownRow;
    int ownCapacity;
    int eof;
    // The last row given, whose order the next one is checked against.
    int given;
    sqlite3_int64 lastTime;
    unsigned char lastId[ID_BYTES];
} Walker;

typedef struct {
    sqlite3_vtab_cursor base;
    sqlite3_stmt *directory; // `record_block_ids`: an id's block and slot
    int blockTable;          // whether the file has `record_block`: -1 not asked yet
    int plan;
    int descending;
    sqlite3_int64 timeLow, timeHigh, seqLow, seqHigh;
    uint64_t kinds, statuses, hiddens;
    int single; // the id plan: only the found slot
    // One walker per vault walked (the id plan's one block is a walker too), merged in order.
    Walker *walkers;
    int walkerCount, walkerCapacity;
    int current;
    int eof;
} ColdCursor;

static uint32_t readU32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static sqlite3_int64 readI64(const unsigned char *p) {
    uint64_t value = 0;
    for (int i = 7; i >= 0; i--) value = value << 8 | p[i];
    return (sqlite3_int64)value;
}

/// The directory's key of an id: its first 8 bytes, big-endian, with the top bit flipped, so
/// that keys as signed integers are in the ids' order.
static sqlite3_int64 directoryKey(const unsigned char *id) {
    uint64_t value = 0;
    for (int i = 0; i < 8; i++) value = value << 8 | id[i];
    return (sqlite3_int64)(value ^ ((uint64_t)1 << 63));
}

const char *const txledger_record_block_slot_sql =
    "SELECT entries, first FROM main.record_block_ids WHERE first <= ?1 ORDER BY first DESC LIMIT 1";

/// The entry of `id` in the run `entries` (`bytes` long): SQLITE_ROW with `*block` and `*slot`
/// set, SQLITE_DONE if the run does not hold it, SQLITE_CORRUPT if the run is not a whole number
/// of entries.
static int findEntry(
    const unsigned char *entries, int bytes, const void *id, sqlite3_int64 *block, int *slot
) {
    if (entries == NULL || bytes <= 0 || bytes % ENTRY_BYTES != 0) return SQLITE_CORRUPT;
    // Entries are in increasing id order: a binary search (a run out of order may miss an id,
    // never reads outside the run).
    int low = 0, high = bytes / ENTRY_BYTES - 1;
    while (low <= high) {
        int middle = low + (high - low) / 2;
        const unsigned char *entry = entries + (size_t)middle * ENTRY_BYTES;
        int order = memcmp(entry, id, ID_BYTES);
        if (order == 0) {
            *block = readU32(entry + ID_BYTES);
            *slot = entry[ID_BYTES + 4] | entry[ID_BYTES + 5] << 8;
            return SQLITE_ROW;
        }
        if (order < 0) low = middle + 1; else high = middle - 1;
    }
    return SQLITE_DONE;
}

int txledger_record_block_slot(
    sqlite3 *db, sqlite3_stmt **statement, const void *id, sqlite3_int64 *block, int *slot
) {
    if (*statement == NULL) {
        int rc = sqlite3_prepare_v3(
            db, txledger_record_block_slot_sql, -1, SQLITE_PREPARE_PERSISTENT, statement, NULL
        );
        if (rc != SQLITE_OK) return rc;
    }
    sqlite3_reset(*statement);
    sqlite3_bind_int64(*statement, 1, directoryKey(id));
    int rc = sqlite3_step(*statement);
    if (rc == SQLITE_ROW) {
        // The type first: reading another type as a blob would convert it.
        if (sqlite3_column_type(*statement, 0) != SQLITE_BLOB) {
            rc = SQLITE_CORRUPT;
        } else {
            const unsigned char *entries = sqlite3_column_blob(*statement, 0);
            rc = findEntry(entries, sqlite3_column_bytes(*statement, 0), id, block, slot);
        }
    }
    // Left reset: the statement holds nothing of the file between lookups.
    sqlite3_reset(*statement);
    return rc;
}

static int fail(ColdCursor *cursor, const Walker *walker, const char *reason) {
    sqlite3_vtab *table = cursor->base.pVtab;
    sqlite3_free(table->zErrMsg);
    table->zErrMsg = sqlite3_mprintf("record block %lld is damaged: %s", walker->blockNum, reason);
    return SQLITE_CORRUPT_VTAB;
}

static int connectTable(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **error) {
    (void)aux; (void)argc; (void)argv; (void)error;
    int rc = sqlite3_declare_vtab(
        db,
        "CREATE TABLE x(num INTEGER, id BLOB, vault INTEGER, time INTEGER, kind INTEGER, chain INTEGER, "
        "replaced BLOB, status INTEGER, hidden INTEGER, erased INTEGER, change_seq INTEGER, state BLOB, "
        "disputed INTEGER)"
    );
    if (rc != SQLITE_OK) return rc;
    ColdTable *table = sqlite3_malloc(sizeof(ColdTable));
    if (table == NULL) return SQLITE_NOMEM;
    memset(table, 0, sizeof(*table));
    table->db = db;
    sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    *out = &table->base;
    return SQLITE_OK;
}

static int disconnectTable(sqlite3_vtab *table) {
    sqlite3_free(table);
    return SQLITE_OK;
}

/// Whether `column` is one whose constraints `xFilter` reads (the others SQLite checks alone).
static int reads(int column, unsigned char op) {
    int comparison = op == SQLITE_INDEX_CONSTRAINT_EQ || op == SQLITE_INDEX_CONSTRAINT_LT
        || op == SQLITE_INDEX_CONSTRAINT_LE || op == SQLITE_INDEX_CONSTRAINT_GT
        || op == SQLITE_INDEX_CONSTRAINT_GE;
    switch (column) {
    case COL_TIME:
    case COL_CHANGE_SEQ:
        return comparison;
    case COL_KIND:
    case COL_STATUS:
    case COL_HIDDEN:
    case COL_ERASED:
    case COL_DISPUTED:
        return comparison || op == SQLITE_INDEX_CONSTRAINT_NE;
    case COL_VAULT:
        return op == SQLITE_INDEX_CONSTRAINT_EQ;
    default:
        return 0;
    }
}

// The plan: by id through the directory, a vault's blocks in history order (either way), or
// every block. idxStr lists what each argument is: its column and operator, "ccooo" each.
static int bestIndex(sqlite3_vtab *tab, sqlite3_index_info *info) {
    int idConstraint = -1, vaultConstraint = -1;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        if (!c->usable || c->op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
        if (c->iColumn == COL_ID && idConstraint < 0) idConstraint = i;
        if (c->iColumn == COL_VAULT && vaultConstraint < 0 && !sqlite3_vtab_in(info, i, -1)) vaultConstraint = i;
    }
    int plan = idConstraint >= 0 ? PLAN_ID : vaultConstraint >= 0 ? PLAN_VAULT : PLAN_ALL;
    char *description = sqlite3_malloc(info->nConstraint * 5 + 1);
    if (description == NULL) return SQLITE_NOMEM;
    description[0] = 0;
    int argc = 0;
    int key = plan == PLAN_ID ? idConstraint : plan == PLAN_VAULT ? vaultConstraint : -1;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < info->nConstraint; i++) {
            const struct sqlite3_index_constraint *c = &info->aConstraint[i];
            // The plan's key first, then the others it reads.
            if (pass == 0 ? i != key : (i == key || !c->usable || !reads(c->iColumn, c->op)
                                         || sqlite3_vtab_in(info, i, -1)))
                continue;
            info->aConstraintUsage[i].argvIndex = ++argc;
            sqlite3_snprintf(6, description + (argc - 1) * 5, "%02d%03d", c->iColumn, c->op);
        }
    }
    info->idxStr = description;
    info->needToFreeIdxStr = 1;
    int flags = plan;
    if (plan == PLAN_ID) {
        info->estimatedCost = 10;
        info->estimatedRows = 1;
    } else {
        info->estimatedCost = plan == PLAN_VAULT ? 100000 : 10000000;
        info->estimatedRows = plan == PLAN_VAULT ? 100000 : 1000000;
        // Each vault's blocks are in history order, and the vaults' walks are merged.
        if (info->nOrderBy >= 1 && info->nOrderBy <= 2 && info->aOrderBy[0].iColumn == COL_TIME
            && (info->nOrderBy == 1
                || (info->aOrderBy[1].iColumn == COL_ID && info->aOrderBy[1].desc == info->aOrderBy[0].desc))) {
            info->orderByConsumed = 1;
            if (info->aOrderBy[0].desc) flags |= PLAN_DESCENDING;
        }
    }
    info->idxNum = flags;
    (void)tab;
    return SQLITE_OK;
}

static int openCursor(sqlite3_vtab *table, sqlite3_vtab_cursor **out) {
    (void)table;
    ColdCursor *cursor = sqlite3_malloc(sizeof(ColdCursor));
    if (cursor == NULL) return SQLITE_NOMEM;
    memset(cursor, 0, sizeof(*cursor));
    cursor->blockTable = -1;
    *out = &cursor->base;
    return SQLITE_OK;
}

static int closeCursor(sqlite3_vtab_cursor *base) {
    ColdCursor *cursor = (ColdCursor *)base;
    for (int i = 0; i < cursor->walkerCapacity; i++) {
        sqlite3_finalize(cursor->walkers[i].blocks);
        sqlite3_free(cursor->walkers[i].ownRow);
    }
    sqlite3_free(cursor->walkers);
    sqlite3_finalize(cursor->directory);
    sqlite3_free(cursor);
    return SQLITE_OK;
}

static uint64_t below(sqlite3_int64 value) {
    if (value <= 0) return 0;
    if (value >= 64) return ~(uint64_t)0;
    return ((uint64_t)1 << value) - 1;
}

/// Narrows `mask`, the values 0 to 63 a column may hold, to those meeting `op value`.
static void narrow(uint64_t *mask, int op, sqlite3_int64 value) {
    uint64_t equal = value >= 0 && value < 64 ? (uint64_t)1 << value : 0;
    uint64_t atMost = value == INT64_MAX ? ~(uint64_t)0 : below(value + 1);
    switch (op) {
    case SQLITE_INDEX_CONSTRAINT_EQ: *mask &= equal; break;
    case SQLITE_INDEX_CONSTRAINT_NE: *mask &= ~equal; break;
    case SQLITE_INDEX_CONSTRAINT_LT: *mask &= below(value); break;
    case SQLITE_INDEX_CONSTRAINT_LE: *mask &= atMost; break;
    case SQLITE_INDEX_CONSTRAINT_GT: *mask &= ~atMost; break;
    case SQLITE_INDEX_CONSTRAINT_GE: *mask &= ~below(value); break;
    }
}

/// Narrows [low, high] to the values meeting `op value`.
static void bound(sqlite3_int64 *low, sqlite3_int64 *high, int op, sqlite3_int64 value) {
    switch (op) {
    case SQLITE_INDEX_CONSTRAINT_EQ:
        if (value > *low) *low = value;
        if (value < *high) *high = value;
        break;
    case SQLITE_INDEX_CONSTRAINT_LT:
        if (value == INT64_MIN) { *low = 1; *high = 0; } else if (value - 1 < *high) *high = value - 1;
        break;
    case SQLITE_INDEX_CONSTRAINT_LE: if (value < *high) *high = value; break;
    case SQLITE_INDEX_CONSTRAINT_GT:
        if (value == INT64_MAX) { *low = 1; *high = 0; } else if (value + 1 > *low) *low = value + 1;
        break;
    case SQLITE_INDEX_CONSTRAINT_GE: if (value > *low) *low = value; break;
    }
}

/// `*statement` reset for `sql`, prepared on first use (a cursor keeps its statements across
/// the calls of one query, as an IN list makes).
static int prepare(ColdCursor *cursor, sqlite3_stmt **statement, const char *sql) {
    ColdTable *table = (ColdTable *)cursor->base.pVtab;
    if (*statement != NULL) {
        sqlite3_reset(*statement);
        sqlite3_clear_bindings(*statement);
        if (strcmp(sqlite3_sql(*statement), sql) == 0) return SQLITE_OK;
        sqlite3_finalize(*statement);
        *statement = NULL;
    }
    return sqlite3_prepare_v3(table->db, sql, -1, SQLITE_PREPARE_PERSISTENT, statement, NULL);
}

/// Takes the block at the walker's statement's current row, checking its shape; its rows
/// too unless `withRows` is 0 (the id plan reads one row through `readRow`).
static int enterBlock(ColdCursor *cursor, Walker *walker, int withRows) {
    sqlite3_stmt *s = walker->blocks;
    walker->blockNum = sqlite3_column_int64(s, 0);
    for (int column = 0; column < 8; column++) {
        if ((column == 5 && !withRows) || (column == 4 && sqlite3_column_type(s, 4) == SQLITE_NULL)) continue;
        int blob = column == 4 || column == 5;
        if (sqlite3_column_type(s, column) != (blob ? SQLITE_BLOB : SQLITE_INTEGER)) {
            return fail(cursor, walker, "a column is not of its type");
        }
    }
    walker->vault = sqlite3_column_int64(s, 1);
    walker->blockSeq = sqlite3_column_int64(s, 2);
    sqlite3_int64 count = sqlite3_column_int64(s, 3);
    walker->oldest = sqlite3_column_int64(s, 6);
    walker->newest = sqlite3_column_int64(s, 7);
    int hasBits = sqlite3_column_type(s, 4) == SQLITE_BLOB;
    walker->superseded = hasBits ? sqlite3_column_blob(s, 4) : NULL;
    int supersededLength = hasBits ? sqlite3_column_bytes(s, 4) : 0;
    walker->rows = sqlite3_column_blob(s, 5);
    walker->rowsLength = sqlite3_column_bytes(s, 5);
    if (count < 1 || count > MAX_BLOCK_ROWS) return fail(cursor, walker, "its count is out of range");
    walker->count = (int)count;
    if (walker->oldest > walker->newest) return fail(cursor, walker, "its oldest time is after its newest");
    if (hasBits && (walker->superseded == NULL || supersededLength != (walker->count + 7) / 8)) {
        return fail(cursor, walker, "its superseded bits are not one per row");
    }
    walker->inBlock = 1;
    if (!withRows) return SQLITE_OK;
    const unsigned char *rows = walker->rows;
    int header = 4 + 4 * (walker->count + 1);
    if (rows == NULL || walker->rowsLength < header || rows[0] != BLOCK_FORMAT || rows[1] != 0
        || (rows[2] | rows[3] << 8) != walker->count) {
        return fail(cursor, walker, "its rows do not start with its format and count");
    }
    if (readU32(rows + 4) != (uint32_t)header
        || readU32(rows + 4 + 4 * walker->count) != (uint32_t)walker->rowsLength) {
        return fail(cursor, walker, "its rows' offsets do not span them");
    }
    for (int slot = 0; slot < walker->count; slot++) {
        uint32_t start = readU32(rows + 4 + 4 * slot), end = readU32(rows + 8 + 4 * slot);
        if (end < start || end - start < ROW_FIXED + 1) return fail(cursor, walker, "a row is too short");
    }
    return SQLITE_OK;
}

/// Points the walker at row `slot` of its block's rows (checked by `enterBlock`).
static void takeSlot(Walker *walker, int slot) {
    walker->slot = slot;
    uint32_t start = readU32(walker->rows + 4 + 4 * slot), end = readU32(walker->rows + 8 + 4 * slot);
    walker->row = walker->rows + start;
    walker->rowLength = (int)(end - start);
}

/// Reads row `slot` of block `walker->blockNum` alone, through SQLite's incremental blob I/O:
/// the block's header, the row's two offsets, then the row (a block is up to 1024 rows; the id
/// plan wants one).
static int readRow(ColdCursor *cursor, Walker *walker, int slot) {
    ColdTable *table = (ColdTable *)cursor->base.pVtab;
    sqlite3_blob *blob;
    int rc = sqlite3_blob_open(table->db, "main", "record_block", "rows", walker->blockNum, 0, &blob);
    if (rc != SQLITE_OK) return rc;
    unsigned char head[4], offsets[8];
    int size = sqlite3_blob_bytes(blob);
    int header = 4 + 4 * (walker->count + 1);
    if (size < header) {
        sqlite3_blob_close(blob);
        return fail(cursor, walker, "its rows are shorter than their offsets");
    }
    rc = sqlite3_blob_read(blob, head, 4, 0);
    if (rc == SQLITE_OK) rc = sqlite3_blob_read(blob, offsets, 8, 4 + 4 * slot);
    if (rc != SQLITE_OK) {
        sqlite3_blob_close(blob);
        return rc;
    }
    uint32_t start = readU32(offsets), end = readU32(offsets + 4);
    if (head[0] != BLOCK_FORMAT || head[1] != 0 || (head[2] | head[3] << 8) != walker->count || start < (uint32_t)header
        || end > (uint32_t)size || end < start || end - start < ROW_FIXED + 1) {
        sqlite3_blob_close(blob);
        return fail(cursor, walker, "a row's offsets do not fit its rows");
    }
    int length = (int)(end - start);
    if (length > walker->ownCapacity) {
        unsigned char *grown = sqlite3_realloc(walker->ownRow, length);
        if (grown == NULL) {
            sqlite3_blob_close(blob);
            return SQLITE_NOMEM;
        }
        walker->ownRow = grown;
        walker->ownCapacity = length;
    }
    rc = sqlite3_blob_read(blob, walker->ownRow, length, (int)start);
    sqlite3_blob_close(blob);
    if (rc != SQLITE_OK) return rc;
    walker->slot = slot;
    walker->row = walker->ownRow;
    walker->rowLength = length;
    return SQLITE_OK;
}

static const unsigned char *rowOf(const Walker *walker) {
    return walker->row;
}

static sqlite3_int64 timeOf(const Walker *walker) {
    return readI64(rowOf(walker) + ID_BYTES);
}

/// Whether the walker's slot is a row to give: 1 yes, 0 no, -1 no and none follows in this
/// walk (past its time bound).
static int consider(ColdCursor *cursor, Walker *walker, int *verdict) {
    *verdict = 0;
    if (walker->superseded != NULL && walker->superseded[walker->slot / 8] & (1 << (walker->slot % 8))) return SQLITE_OK;
    const unsigned char *p = rowOf(walker);
    sqlite3_int64 time = readI64(p + ID_BYTES);
    unsigned kind = p[32], status = p[33], hidden = p[34];
    if (time < walker->oldest || time > walker->newest) return fail(cursor, walker, "a row's time is outside the block's");
    if (kind > 2 || (status != 2 && status != 3) || hidden > 1) {
        return fail(cursor, walker, "a row's kind, status or hidden flag is out of range");
    }
    if (walker->given) {
        int order = time < walker->lastTime ? -1 : time > walker->lastTime ? 1 : memcmp(p, walker->lastId, ID_BYTES);
        if (order == 0 || (order < 0) != cursor->descending) return fail(cursor, walker, "its rows are not in history order");
    }
    if (cursor->descending ? time < cursor->timeLow : time > cursor->timeHigh) {
        *verdict = -1;
        return SQLITE_OK;
    }
    if (time < cursor->timeLow || time > cursor->timeHigh) return SQLITE_OK;
    if (!(cursor->kinds >> kind & 1) || !(cursor->statuses >> status & 1) || !(cursor->hiddens >> hidden & 1)) {
        return SQLITE_OK;
    }
    *verdict = 1;
    return SQLITE_OK;
}

/// Moves `walker` to its next row to give, or to its end.
static int walk(ColdCursor *cursor, Walker *walker) {
    for (;;) {
        if (walker->inBlock) {
            int slot = walker->slot + (cursor->descending ? -1 : 1);
            if (slot >= 0 && slot < walker->count) {
                takeSlot(walker, slot);
                int verdict, rc = consider(cursor, walker, &verdict);
                if (rc != SQLITE_OK) return rc;
                if (verdict < 0) break;
                if (verdict > 0) {
                    walker->given = 1;
                    walker->lastTime = timeOf(walker);
                    memcpy(walker->lastId, rowOf(walker), ID_BYTES);
                    return SQLITE_OK;
                }
                continue;
            }
            walker->inBlock = 0;
        }
        int rc = sqlite3_step(walker->blocks);
        if (rc == SQLITE_DONE) break;
        if (rc != SQLITE_ROW) return rc;
        rc = enterBlock(cursor, walker, 1);
        if (rc != SQLITE_OK) return rc;
        walker->slot = cursor->descending ? walker->count : -1;
    }
    walker->eof = 1;
    return SQLITE_OK;
}

/// Points `current` at the walker whose row comes first in the cursor's order.
static void choose(ColdCursor *cursor) {
    cursor->current = -1;
    for (int i = 0; i < cursor->walkerCount; i++) {
        Walker *walker = &cursor->walkers[i];
        if (walker->eof) continue;
        if (cursor->current >= 0) {
            Walker *best = &cursor->walkers[cursor->current];
            sqlite3_int64 time = timeOf(walker), bestTime = timeOf(best);
            int order = time < bestTime ? -1 : time > bestTime ? 1 : memcmp(rowOf(walker), rowOf(best), ID_BYTES);
            if ((order > 0) != cursor->descending) continue;
        }
        cursor->current = i;
    }
    cursor->eof = cursor->current < 0;
}

/// A walker more, with its statement and row buffer kept from an earlier query where there are.
static Walker *addWalker(ColdCursor *cursor) {
    if (cursor->walkerCount == cursor->walkerCapacity) {
        int capacity = cursor->walkerCapacity ? cursor->walkerCapacity * 2 : 1;
        Walker *walkers = sqlite3_realloc(cursor->walkers, capacity * (int)sizeof(Walker));
        if (walkers == NULL) return NULL;
        memset(walkers + cursor->walkerCapacity, 0, (capacity - cursor->walkerCapacity) * sizeof(Walker));
        cursor->walkers = walkers;
        cursor->walkerCapacity = capacity;
    }
    Walker *walker = &cursor->walkers[cursor->walkerCount++];
    sqlite3_stmt *kept = walker->blocks;
    unsigned char *ownRow = walker->ownRow;
    int ownCapacity = walker->ownCapacity;
    memset(walker, 0, sizeof(*walker));
    walker->blocks = kept;
    walker->ownRow = ownRow;
    walker->ownCapacity = ownCapacity;
    return walker;
}

/// Whether this file has blocks at all (a file of an older schema has no `record_block`).
static int hasBlockTable(ColdCursor *cursor) {
    if (cursor->blockTable >= 0) return SQLITE_OK;
    ColdTable *table = (ColdTable *)cursor->base.pVtab;
    sqlite3_stmt *statement;
    int rc = sqlite3_prepare_v2(
        table->db, "SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = 'record_block'", -1, &statement, NULL
    );
    if (rc != SQLITE_OK) return rc;
    rc = sqlite3_step(statement);
    cursor->blockTable = rc == SQLITE_ROW;
    sqlite3_finalize(statement);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/// The id plan: the directory's block and slot for `id`, checked against the block.
static int findID(ColdCursor *cursor, sqlite3_value *id, sqlite3_int64 vault, int vaultGiven) {
    if (sqlite3_value_type(id) != SQLITE_BLOB || sqlite3_value_bytes(id) != ID_BYTES) return SQLITE_OK;
    ColdTable *table = (ColdTable *)cursor->base.pVtab;
    sqlite3_int64 block;
    int slot;
    int rc = txledger_record_block_slot(table->db, &cursor->directory, sqlite3_value_blob(id), &block, &slot);
    if (rc == SQLITE_DONE) return SQLITE_OK;
    if (rc == SQLITE_CORRUPT) {
        sqlite3_free(table->base.zErrMsg);
        table->base.zErrMsg = sqlite3_mprintf("the directory of record blocks is damaged");
        return SQLITE_CORRUPT_VTAB;
    }
    if (rc != SQLITE_ROW) return rc;
    Walker *walker = addWalker(cursor);
    if (walker == NULL) return SQLITE_NOMEM;
    rc = prepare(
        cursor,
        &walker->blocks,
        "SELECT b.num, b.vault, b.change_seq, b.count, s.bits, NULL, b.oldest, b.newest FROM main.record_block b"
        " LEFT JOIN main.record_block_superseded s ON s.block = b.num WHERE b.num = ?1"
    );
    if (rc != SQLITE_OK) return rc;
    sqlite3_bind_int64(walker->blocks, 1, block);
    rc = sqlite3_step(walker->blocks);
    walker->blockNum = block;
    if (rc == SQLITE_DONE) return fail(cursor, walker, "the directory names a block that is not there");
    if (rc != SQLITE_ROW) return rc;
    rc = enterBlock(cursor, walker, 0);
    if (rc != SQLITE_OK) return rc;
    if (slot < 0 || slot >= walker->count) return fail(cursor, walker, "the directory names a slot it does not have");
    rc = readRow(cursor, walker, (int)slot);
    if (rc != SQLITE_OK) return rc;
    if (memcmp(rowOf(walker), sqlite3_value_blob(id), ID_BYTES) != 0) {
        return fail(cursor, walker, "the directory's slot holds another record");
    }
    if (vaultGiven && walker->vault != vault) return SQLITE_OK;
    int verdict;
    rc = consider(cursor, walker, &verdict);
    if (rc != SQLITE_OK || verdict <= 0) return rc;
    cursor->single = 1;
    cursor->current = 0;
    cursor->eof = 0;
    return SQLITE_OK;
}

/// Starts a walk through the blocks of vault `vault`, in the cursor's order.
static int walkVault(ColdCursor *cursor, sqlite3_int64 vault) {
    Walker *walker = addWalker(cursor);
    if (walker == NULL) return SQLITE_NOMEM;
    int rc = prepare(
        cursor,
        &walker->blocks,
        cursor->descending
            ? "SELECT " BLOCK_COLUMNS " WHERE b.vault = ?1 AND b.oldest <= ?2 AND b.newest >= ?3"
              " AND b.change_seq BETWEEN ?4 AND ?5 ORDER BY b.num DESC"
            : "SELECT " BLOCK_COLUMNS " WHERE b.vault = ?1 AND b.oldest <= ?2 AND b.newest >= ?3"
              " AND b.change_seq BETWEEN ?4 AND ?5 ORDER BY b.num"
    );
    if (rc != SQLITE_OK) return rc;
    sqlite3_bind_int64(walker->blocks, 1, vault);
    sqlite3_bind_int64(walker->blocks, 2, cursor->timeHigh);
    sqlite3_bind_int64(walker->blocks, 3, cursor->timeLow);
    sqlite3_bind_int64(walker->blocks, 4, cursor->seqLow);
    sqlite3_bind_int64(walker->blocks, 5, cursor->seqHigh);
    return walk(cursor, walker);
}

/// The number written in `count` decimal digits at `text` (an `idxStr` of `bestIndex`).
static int digits(const char *text, int count) {
    int value = 0;
    for (int i = 0; i < count; i++) value = value * 10 + (text[i] - '0');
    return value;
}

static int filterRows(sqlite3_vtab_cursor *base, int idxNum, const char *idxStr, int argc, sqlite3_value **argv) {
    ColdCursor *cursor = (ColdCursor *)base;
    cursor->plan = idxNum & PLAN_MASK;
    cursor->descending = (idxNum & PLAN_DESCENDING) != 0;
    cursor->timeLow = cursor->seqLow = INT64_MIN;
    cursor->timeHigh = cursor->seqHigh = INT64_MAX;
    cursor->kinds = cursor->statuses = cursor->hiddens = ~(uint64_t)0;
    uint64_t erased = ~(uint64_t)0, disputed = ~(uint64_t)0;
    cursor->single = 0;
    cursor->walkerCount = 0;
    cursor->eof = 1;
    int rc = hasBlockTable(cursor);
    if (rc != SQLITE_OK || !cursor->blockTable) return rc;
    sqlite3_int64 vault = 0;
    int vaultGiven = 0;
    sqlite3_value *id = NULL;
    for (int i = 0; i < argc; i++) {
        int column = digits(idxStr + i * 5, 2), op = digits(idxStr + i * 5 + 2, 3);
        sqlite3_value *value = argv[i];
        if (column == COL_ID) {
            id = value;
            continue;
        }
        if (sqlite3_value_type(value) == SQLITE_NULL) return SQLITE_OK; // a comparison with NULL holds for no row
        if (sqlite3_value_numeric_type(value) != SQLITE_INTEGER) continue; // left to SQLite
        sqlite3_int64 number = sqlite3_value_int64(value);
        switch (column) {
        case COL_VAULT: vault = number; vaultGiven = 1; break;
        case COL_TIME: bound(&cursor->timeLow, &cursor->timeHigh, op, number); break;
        case COL_CHANGE_SEQ: bound(&cursor->seqLow, &cursor->seqHigh, op, number); break;
        case COL_KIND: narrow(&cursor->kinds, op, number); break;
        case COL_STATUS: narrow(&cursor->statuses, op, number); break;
        case COL_HIDDEN: narrow(&cursor->hiddens, op, number); break;
        case COL_ERASED: narrow(&erased, op, number); break;
        case COL_DISPUTED: narrow(&disputed, op, number); break;
        }
    }
    // A block's rows are never erased nor disputed, and are confirmed or failed.
    if (!(erased & 1) || !(disputed & 1) || !(cursor->statuses & 0xC) || !(cursor->kinds & 7) || !(cursor->hiddens & 3)
        || cursor->timeLow > cursor->timeHigh || cursor->seqLow > cursor->seqHigh) {
        return SQLITE_OK;
    }
    if (cursor->plan == PLAN_ID) return id == NULL ? SQLITE_OK : findID(cursor, id, vault, vaultGiven);
    if (cursor->plan == PLAN_VAULT) {
        if (!vaultGiven) return SQLITE_OK;
        rc = walkVault(cursor, vault);
    } else {
        // Every vault's blocks, merged in order.
        sqlite3_stmt *vaults;
        ColdTable *table = (ColdTable *)cursor->base.pVtab;
        rc = sqlite3_prepare_v2(table->db, "SELECT DISTINCT vault FROM main.record_block ORDER BY vault", -1, &vaults, NULL);
        if (rc != SQLITE_OK) return rc;
        while ((rc = sqlite3_step(vaults)) == SQLITE_ROW) {
            rc = walkVault(cursor, sqlite3_column_int64(vaults, 0));
            if (rc != SQLITE_OK) break;
        }
        sqlite3_finalize(vaults);
        if (rc == SQLITE_DONE) rc = SQLITE_OK;
    }
    if (rc == SQLITE_OK) choose(cursor);
    return rc;
}

static int nextRow(sqlite3_vtab_cursor *base) {
    ColdCursor *cursor = (ColdCursor *)base;
    if (cursor->single) {
        cursor->eof = 1;
        return SQLITE_OK;
    }
    int rc = walk(cursor, &cursor->walkers[cursor->current]);
    if (rc == SQLITE_OK) choose(cursor);
    return rc;
}

static int atEnd(sqlite3_vtab_cursor *base) {
    return ((ColdCursor *)base)->eof;
}

static int columnValue(sqlite3_vtab_cursor *base, sqlite3_context *context, int index) {
    ColdCursor *cursor = (ColdCursor *)base;
    const Walker *walker = &cursor->walkers[cursor->current];
    const unsigned char *p = rowOf(walker);
    switch (index) {
    case COL_ID: sqlite3_result_blob(context, p, ID_BYTES, SQLITE_TRANSIENT); break;
    case COL_VAULT: sqlite3_result_int64(context, walker->vault); break;
    case COL_TIME: sqlite3_result_int64(context, readI64(p + ID_BYTES)); break;
    case COL_CHAIN: sqlite3_result_int64(context, readI64(p + ID_BYTES + 8)); break;
    case COL_KIND: sqlite3_result_int(context, p[32]); break;
    case COL_STATUS: sqlite3_result_int(context, p[33]); break;
    case COL_HIDDEN: sqlite3_result_int(context, p[34]); break;
    case COL_ERASED:
    case COL_DISPUTED: sqlite3_result_int(context, 0); break;
    case COL_CHANGE_SEQ: sqlite3_result_int64(context, walker->blockSeq); break;
    case COL_STATE: sqlite3_result_blob(context, p + ROW_FIXED, walker->rowLength - ROW_FIXED, SQLITE_TRANSIENT); break;
    default: sqlite3_result_null(context); break; // num (a block's record has none), replaced
    }
    return SQLITE_OK;
}

static int rowNumber(sqlite3_vtab_cursor *base, sqlite3_int64 *out) {
    ColdCursor *cursor = (ColdCursor *)base;
    const Walker *walker = &cursor->walkers[cursor->current];
    *out = walker->blockNum * MAX_BLOCK_ROWS + walker->slot;
    return SQLITE_OK;
}

static sqlite3_module module = {
    .iVersion = 0,
    .xCreate = NULL, // eponymous only: `record_cold` needs no CREATE VIRTUAL TABLE
    .xConnect = connectTable,
    .xBestIndex = bestIndex,
    .xDisconnect = disconnectTable,
    .xDestroy = disconnectTable,
    .xOpen = openCursor,
    .xClose = closeCursor,
    .xFilter = filterRows,
    .xNext = nextRow,
    .xEof = atEnd,
    .xColumn = columnValue,
    .xRowid = rowNumber,
};

int txledger_register_record_cold(sqlite3 *db) {
    return sqlite3_create_module_v2(db, "record_cold", &module, NULL, NULL);
}
