import Foundation
import GRDB
import TxLedgerCore

/// The database schema, as GRDB migrations. `Specs/schema.md` describes each table and column.
/// A migration, once released, is never edited: changes come as new migrations.
enum LedgerSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: ledger core") { db in
            try db.execute(
                sql: """
                    CREATE TABLE ledger_meta (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        replica_id INTEGER NOT NULL CHECK (replica_id >= 0),
                        clock INTEGER NOT NULL
                    );
                    CREATE TABLE app (
                        id INTEGER PRIMARY KEY,
                        domain TEXT NOT NULL DEFAULT '',
                        uri TEXT NOT NULL DEFAULT '',
                        scheme TEXT NOT NULL DEFAULT '',
                        UNIQUE (domain, uri, scheme)
                    );
                    CREATE TABLE record (
                        id TEXT PRIMARY KEY NOT NULL,
                        vault_id TEXT NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('send', 'swap', 'signature')),
                        chain TEXT NOT NULL,
                        timestamp_ms INTEGER NOT NULL,
                        tx_hash TEXT,
                        explorer_url TEXT,
                        fiat_value TEXT,
                        from_address TEXT,
                        app_id INTEGER REFERENCES app(id),
                        method TEXT,
                        to_address TEXT,
                        amount TEXT,
                        token_symbol TEXT,
                        token_contract TEXT,
                        token_decimals INTEGER,
                        token_logo TEXT,
                        fee_estimate TEXT,
                        memo TEXT,
                        from_token_symbol TEXT,
                        from_token_contract TEXT,
                        from_token_decimals INTEGER,
                        from_amount TEXT,
                        from_chain TEXT,
                        from_token_logo TEXT,
                        to_token_symbol TEXT,
                        to_token_contract TEXT,
                        to_token_decimals INTEGER,
                        to_amount TEXT,
                        min_payout TEXT,
                        to_chain TEXT,
                        to_token_logo TEXT,
                        provider TEXT,
                        route TEXT,
                        message TEXT,
                        signature TEXT,
                        facts_time INTEGER NOT NULL,
                        facts_replica INTEGER NOT NULL,
                        pending_time INTEGER,
                        pending_replica INTEGER,
                        terminal_status TEXT CHECK (terminal_status IN ('confirmed', 'failed')),
                        confirmed_at_ms INTEGER,
                        failure_reason TEXT,
                        terminal_time INTEGER,
                        terminal_replica INTEGER,
                        status TEXT NOT NULL GENERATED ALWAYS AS (
                            COALESCE(terminal_status, CASE WHEN pending_time IS NULL THEN 'broadcasted' ELSE 'pending' END)
                        ) VIRTUAL,
                        last_checked_at_ms INTEGER,
                        note TEXT,
                        note_time INTEGER,
                        note_replica INTEGER,
                        labels TEXT,
                        labels_time INTEGER,
                        labels_replica INTEGER,
                        hidden INTEGER CHECK (hidden IN (0, 1)),
                        hidden_time INTEGER,
                        hidden_replica INTEGER
                    );
                    CREATE INDEX record_by_vault_time ON record (vault_id, timestamp_ms DESC, id DESC);
                    CREATE INDEX record_by_time ON record (timestamp_ms DESC, id DESC);
                    CREATE INDEX record_by_hash ON record (tx_hash);
                    """
            )
            try db.execute(
                sql: "INSERT INTO ledger_meta (id, replica_id, clock) VALUES (1, ?, 0)",
                arguments: [ReplicaID.random().rawValue]
            )
        }
        migrator.registerMigration("v2: replication") { db in
            try db.execute(
                sql: """
                    ALTER TABLE ledger_meta ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE record ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
                    CREATE TABLE vault (
                        id TEXT PRIMARY KEY NOT NULL,
                        cleared_time INTEGER,
                        cleared_replica INTEGER,
                        change_seq INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE TABLE peer (
                        vault_id TEXT NOT NULL,
                        replica_id INTEGER NOT NULL CHECK (replica_id >= 0),
                        have_seq INTEGER NOT NULL DEFAULT 0,
                        acked_seq INTEGER NOT NULL DEFAULT 0,
                        PRIMARY KEY (vault_id, replica_id)
                    ) WITHOUT ROWID;
                    INSERT INTO vault (id, change_seq) SELECT DISTINCT vault_id, 1 FROM record;
                    UPDATE record SET change_seq = 1;
                    UPDATE ledger_meta SET seq = 1 WHERE EXISTS (SELECT 1 FROM record);
                    CREATE INDEX record_by_vault_change ON record (vault_id, change_seq);
                    """
            )
        }
        migrator.registerMigration("v3: history queries") { db in
            try db.execute(
                sql: """
                    CREATE INDEX record_by_vault_kind_time ON record (vault_id, kind, timestamp_ms DESC, id DESC);
                    CREATE INDEX record_by_vault_chain_time ON record (vault_id, chain, timestamp_ms DESC, id DESC);
                    CREATE INDEX record_in_progress ON record (vault_id, timestamp_ms DESC, id DESC)
                        WHERE terminal_status IS NULL AND kind <> 'signature';
                    """
            )
        }
        migrator.registerMigration("v4: status tracking") { db in
            try db.execute(sql: "ALTER TABLE record ADD COLUMN nonce INTEGER CHECK (nonce >= 0)")
        }
        migrator.registerMigration("v5: epochs and peers") { db in
            try db.execute(
                sql: """
                    CREATE TABLE epoch (
                        id INTEGER PRIMARY KEY NOT NULL CHECK (id > 0),
                        first_seq INTEGER NOT NULL UNIQUE
                    );
                    ALTER TABLE ledger_meta ADD COLUMN epoch INTEGER;
                    ALTER TABLE peer ADD COLUMN have_epoch INTEGER;
                    ALTER TABLE peer ADD COLUMN heard_at_ms INTEGER;
                    """
            )
            // The changes made before epochs existed form one epoch; peers that said what they
            // hold were heard from (now, as far as the horizon is concerned).
            if try Int64.fetchOne(db, sql: "SELECT seq FROM ledger_meta WHERE id = 1") ?? 0 > 0 {
                try LedgerMeta.startEpoch(EpochID.random(), at: 1, db)
            }
            try db.execute(sql: "UPDATE peer SET heard_at_ms = ? WHERE acked_seq > 0", arguments: [Date().millis])
        }
        migrator.registerMigration("v6: newer fields") { db in
            try db.execute(sql: "ALTER TABLE record ADD COLUMN newer_fields BLOB")
        }
        migrator.registerMigration("v7: folder sync") { db in
            try db.execute(
                sql: """
                    CREATE TABLE folder_file (
                        folder TEXT NOT NULL,
                        name TEXT NOT NULL,
                        size INTEGER NOT NULL,
                        vault_id TEXT NOT NULL,
                        origin INTEGER NOT NULL,
                        since_seq INTEGER NOT NULL,
                        through_seq INTEGER NOT NULL,
                        written INTEGER NOT NULL CHECK (written IN (0, 1)),
                        PRIMARY KEY (folder, name)
                    ) WITHOUT ROWID
                    """
            )
        }
        migrator.registerMigration("v8: compact records") { db in
            try db.execute(
                sql: """
                    CREATE TABLE chain (
                        num INTEGER PRIMARY KEY,
                        id TEXT NOT NULL UNIQUE
                    );
                    CREATE TABLE vault_v8 (
                        num INTEGER PRIMARY KEY,
                        id TEXT NOT NULL UNIQUE,
                        cleared_time INTEGER,
                        cleared_replica INTEGER,
                        change_seq INTEGER NOT NULL DEFAULT 0
                    );
                    INSERT INTO vault_v8 (id, cleared_time, cleared_replica, change_seq)
                        SELECT id, cleared_time, cleared_replica, change_seq FROM vault ORDER BY id;
                    DROP TABLE vault;
                    ALTER TABLE vault_v8 RENAME TO vault;
                    ALTER TABLE record RENAME TO record_v7;
                    CREATE TABLE record (
                        num INTEGER PRIMARY KEY,
                        id BLOB NOT NULL UNIQUE CHECK (length(id) = 16),
                        vault INTEGER NOT NULL,
                        time INTEGER NOT NULL,
                        kind INTEGER NOT NULL CHECK (kind IN (0, 1, 2)),
                        chain INTEGER NOT NULL,
                        replaced BLOB CHECK (replaced IS NULL OR length(replaced) = 16),
                        status INTEGER NOT NULL CHECK (status IN (0, 1, 2, 3, 4, 5)),
                        hidden INTEGER NOT NULL CHECK (hidden IN (0, 1)),
                        erased INTEGER NOT NULL CHECK (erased IN (0, 1)),
                        change_seq INTEGER NOT NULL,
                        state BLOB NOT NULL
                    );
                    CREATE TABLE frame_text (
                        num INTEGER PRIMARY KEY CHECK (num > 0),
                        value TEXT NOT NULL
                    );
                    CREATE TABLE frame_replica (
                        num INTEGER PRIMARY KEY CHECK (num >= 0),
                        id INTEGER NOT NULL CHECK (id >= 0)
                    );
                    ALTER TABLE ledger_meta ADD COLUMN frame_texts INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE ledger_meta ADD COLUMN frame_replicas INTEGER NOT NULL DEFAULT 0;
                    """
            )
            try RecordRowV7.migrate(db)
            try db.execute(
                sql: """
                    DROP TABLE record_v7;
                    DROP TABLE app;
                    CREATE INDEX record_by_vault_time ON record (vault, time);
                    CREATE INDEX record_by_time ON record (time);
                    CREATE INDEX record_by_vault_kind_time ON record (vault, kind, time);
                    CREATE INDEX record_by_vault_chain_time ON record (vault, chain, time);
                    CREATE INDEX record_in_progress ON record (vault, time) WHERE status < 2 AND kind <> 2;
                    CREATE INDEX record_by_vault_change ON record (vault, change_seq);
                    CREATE INDEX record_inferred ON record (time) WHERE status = 4;
                    CREATE INDEX record_replacing ON record (replaced) WHERE replaced IS NOT NULL;
                    """
            )
        }
        migrator.registerMigration("v9: drop suspicions") { db in
            // Local only, never synced: when a status check first saw a record's nonce used by
            // another transaction (status-tracking.md, "Proof and inference").
            try db.execute(
                sql: """
                    CREATE TABLE drop_suspicion (
                        record INTEGER PRIMARY KEY REFERENCES record (num) ON DELETE CASCADE,
                        since_ms INTEGER NOT NULL
                    )
                    """
            )
        }
        migrator.registerMigration("v10: folder writes") { db in
            // Local only: the names of sync folder files this ledger started to write and has
            // not finished, so that a sync killed while writing has its temporary file removed
            // by the next one (folder-sync.md, "One sync").
            try db.execute(
                sql: """
                    CREATE TABLE folder_write (
                        folder TEXT NOT NULL,
                        name TEXT NOT NULL,
                        PRIMARY KEY (folder, name)
                    ) WITHOUT ROWID
                    """
            )
        }
        migrator.registerMigration("v11: device keys") { db in
            // Per vault: the first recovery identity this device pinned, the signed membership
            // operations it holds (devices.md, "Membership"), and the writes it set aside
            // because their device had been removed (devices.md, "What counts as a member's
            // write"); and, per folder file it wrote, a digest of the membership log it carried.
            try db.execute(
                sql: """
                    CREATE TABLE vault_device (
                        vault TEXT PRIMARY KEY,
                        first_recovery BLOB NOT NULL CHECK (length(first_recovery) = 64)
                    ) WITHOUT ROWID;
                    CREATE TABLE membership_operation (
                        id BLOB PRIMARY KEY CHECK (length(id) = 32),
                        vault TEXT NOT NULL,
                        encoded BLOB NOT NULL
                    ) WITHOUT ROWID;
                    CREATE INDEX membership_operation_by_vault ON membership_operation (vault);
                    CREATE TABLE set_aside (
                        vault TEXT NOT NULL,
                        record BLOB NOT NULL CHECK (length(record) = 16),
                        device BLOB NOT NULL CHECK (length(device) = 16),
                        registers TEXT NOT NULL,
                        json TEXT NOT NULL,
                        received_ms INTEGER NOT NULL,
                        PRIMARY KEY (vault, record, device)
                    ) WITHOUT ROWID;
                    ALTER TABLE folder_file ADD COLUMN membership BLOB;
                    """
            )
        }
        migrator.registerMigration("v12: observed clears, disputes, acknowledgements") { db in
            // Local only: when this device first held each cleared record (a record whose
            // facts its clear mark had seen, or older than its vault's watermark), so that it
            // stays restorable for 30 days; and, once its state was purged, the mark it had,
            // so that the state is not taken back from a device that never heard of the clear
            // (crdt.md, "Clearing a vault"). Per record, whether devices dispute its outcome (a
            // status check asks the chain: crdt.md, "Outcomes the chain settles"). Per peer, the
            // change of this replica it is waited on to acknowledge (crdt.md, "Peers that do not
            // read").
            try db.execute(
                sql: """
                    CREATE TABLE cleared_record (
                        record INTEGER PRIMARY KEY REFERENCES record (num) ON DELETE CASCADE,
                        since_ms INTEGER NOT NULL
                    );
                    CREATE INDEX cleared_record_since ON cleared_record (since_ms);
                    INSERT INTO cleared_record (record, since_ms)
                        SELECT num, CAST(strftime('%s', 'now') AS INTEGER) * 1000 FROM record WHERE erased = 1;
                    CREATE TABLE clear_tombstone (
                        id BLOB PRIMARY KEY CHECK (length(id) = 16),
                        vault INTEGER NOT NULL,
                        through_time INTEGER NOT NULL,
                        through_replica INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    CREATE INDEX clear_tombstone_by_vault ON clear_tombstone (vault);
                    ALTER TABLE record ADD COLUMN disputed INTEGER NOT NULL DEFAULT 0 CHECK (disputed IN (0, 1));
                    CREATE INDEX record_disputed ON record (time) WHERE disputed = 1;
                    ALTER TABLE peer ADD COLUMN wait_seq INTEGER;
                    ALTER TABLE peer ADD COLUMN wait_since_ms INTEGER;
                    ALTER TABLE peer ADD COLUMN wait_their_seq INTEGER;
                    ALTER TABLE peer ADD COLUMN wait_advances INTEGER;
                    """
            )
        }
        migrator.registerMigration("v13: shared full files") { db in
            // Per file of a sync folder: another device's full file this replica keeps in place
            // of its own (the change number of the merge that proved it held everything), or
            // one its next full file should hold (folder-sync.md, "Adopting another device's
            // full file"). The other devices' full files already read count as the latter, so
            // that the first sync after the upgrade writes one full file the others can adopt.
            try db.execute(
                sql: """
                    ALTER TABLE folder_file ADD COLUMN covers_through INTEGER;
                    ALTER TABLE folder_file ADD COLUMN rival INTEGER NOT NULL DEFAULT 0 CHECK (rival IN (0, 1));
                    UPDATE folder_file SET rival = 1 WHERE written = 0 AND since_seq = 0;
                    """
            )
        }
        migrator.registerMigration("v14: record blocks") { db in
            // Settled records a new device loaded from a full change set, kept 1024 at most to a
            // row in history order, the rows of each block that no longer hold their record (a
            // table of their own: an update of a block's row would rewrite its rows), and the
            // directory of their ids (schema.md, "Migration `v14: record blocks`").
            try db.execute(
                sql: """
                    CREATE TABLE record_block (
                        num INTEGER PRIMARY KEY,
                        vault INTEGER NOT NULL,
                        oldest INTEGER NOT NULL,
                        newest INTEGER NOT NULL,
                        count INTEGER NOT NULL CHECK (count BETWEEN 1 AND 1024),
                        change_seq INTEGER NOT NULL,
                        rows BLOB NOT NULL
                    );
                    CREATE INDEX record_block_by_vault ON record_block (vault);
                    CREATE TABLE record_block_superseded (
                        block INTEGER PRIMARY KEY,
                        bits BLOB NOT NULL
                    );
                    CREATE TABLE record_cold_id (
                        id BLOB PRIMARY KEY CHECK (length(id) = 16),
                        block INTEGER NOT NULL,
                        slot INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v15: record counts") { db in
            // How many records of each vault have each value of the columns a tab count filters
            // on, kept by `RecordStore` as it writes rows and blocks (schema.md, "Migration
            // `v15: record counts`").
            try db.execute(
                sql: """
                    CREATE TABLE record_count (
                        vault INTEGER NOT NULL,
                        chain INTEGER NOT NULL,
                        kind INTEGER NOT NULL,
                        status INTEGER NOT NULL,
                        hidden INTEGER NOT NULL,
                        erased INTEGER NOT NULL,
                        count INTEGER NOT NULL,
                        PRIMARY KEY (vault, chain, kind, status, hidden, erased)
                    ) WITHOUT ROWID;
                    INSERT INTO record_count
                        SELECT vault, chain, kind, status, hidden, erased, COUNT(*) FROM (
                            SELECT vault, chain, kind, status, hidden, erased FROM record
                            UNION ALL
                            SELECT vault, chain, kind, status, hidden, erased FROM record_cold
                        ) GROUP BY vault, chain, kind, status, hidden, erased;
                    """
            )
        }
        migrator.registerMigration("v16: record checks without value lists") { db in
            // `kind` and `status` checked as integer ranges: SQLite checks an `IN` list of more
            // than two values through a temporary index built anew for each statement run, one
            // per row a merge writes (schema.md, "Migration `v16: record checks without value
            // lists`"). The table is rebuilt with the same rows, numbers and indexes.
            try db.execute(
                sql: """
                    CREATE TABLE record_v16 (
                        num INTEGER PRIMARY KEY,
                        id BLOB NOT NULL UNIQUE CHECK (length(id) = 16),
                        vault INTEGER NOT NULL,
                        time INTEGER NOT NULL,
                        kind INTEGER NOT NULL CHECK (typeof(kind) = 'integer' AND kind BETWEEN 0 AND 2),
                        chain INTEGER NOT NULL,
                        replaced BLOB CHECK (replaced IS NULL OR length(replaced) = 16),
                        status INTEGER NOT NULL CHECK (typeof(status) = 'integer' AND status BETWEEN 0 AND 5),
                        hidden INTEGER NOT NULL CHECK (hidden IN (0, 1)),
                        erased INTEGER NOT NULL CHECK (erased IN (0, 1)),
                        change_seq INTEGER NOT NULL,
                        state BLOB NOT NULL,
                        disputed INTEGER NOT NULL DEFAULT 0 CHECK (disputed IN (0, 1))
                    );
                    INSERT INTO record_v16
                        SELECT num, id, vault, time, kind, chain, replaced, status, hidden, erased, change_seq,
                            state, disputed
                        FROM record ORDER BY num;
                    DROP TABLE record;
                    ALTER TABLE record_v16 RENAME TO record;
                    CREATE INDEX record_by_vault_time ON record (vault, time);
                    CREATE INDEX record_by_time ON record (time);
                    CREATE INDEX record_by_vault_kind_time ON record (vault, kind, time);
                    CREATE INDEX record_by_vault_chain_time ON record (vault, chain, time);
                    CREATE INDEX record_in_progress ON record (vault, time) WHERE status < 2 AND kind <> 2;
                    CREATE INDEX record_by_vault_change ON record (vault, change_seq);
                    CREATE INDEX record_inferred ON record (time) WHERE status = 4;
                    CREATE INDEX record_replacing ON record (replaced) WHERE replaced IS NOT NULL;
                    CREATE INDEX record_disputed ON record (time) WHERE disputed = 1;
                    """
            )
        }
        migrator.registerMigration("v17: the directory in runs") { db in
            // The directory of the records blocks hold, a row per record before, kept as runs of
            // entries in id order, a row per run (schema.md, "Migration `v17: the directory in
            // runs`"): the same entries, in the same order.
            try db.execute(
                sql: """
                    CREATE TABLE record_block_ids (
                        first INTEGER PRIMARY KEY,
                        entries BLOB NOT NULL CHECK (length(entries) > 0 AND length(entries) % 22 = 0)
                    );
                    """
            )
            // A row at a time: a file of a million entries would otherwise hold them all in memory.
            let entries = try Row.fetchCursor(db, sql: "SELECT id, block, slot FROM record_cold_id ORDER BY id")
            try BlockDirectory.replace(in: db) { add in
                while let row = try entries.next() {
                    guard let id = RecordRow.blob(row[0] as DatabaseValue).flatMap({ TransactionID(bytes: $0) }),
                        let block = UInt32.fromDatabaseValue(row[1]), let slot = UInt16.fromDatabaseValue(row[2])
                    else {
                        throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "a directory entry of v14 is damaged")
                    }
                    try add(RecordStore.BlockSlot(id: id, block: block, slot: slot))
                }
            }
            try db.execute(sql: "DROP TABLE record_cold_id")
        }
        return migrator
    }
}
