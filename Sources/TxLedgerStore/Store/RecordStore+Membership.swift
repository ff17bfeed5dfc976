import Foundation
import GRDB
import TxLedgerCore
import TxLedgerMembership

/// The `vault_device` and `membership_operation` tables: per vault, the first recovery
/// identity this device pinned and the signed operations of its membership log
/// (Specs/devices.md, "Membership"; schema.md, `v11: device keys`).
extension RecordStore {
    /// The vault's membership log as this ledger holds it; `nil` if the vault has no device
    /// keys here (no first recovery identity pinned).
    /// - Throws: `LedgerError.unreadableDatabase` for rows that do not decode (another
    ///   replica's file given to `merge`).
    package func membershipLog(_ vault: String) throws -> MembershipLog? {
        guard
            let pinned = try Data.fetchOne(
                db.cachedStatement(sql: "SELECT first_recovery FROM vault_device WHERE vault = ?"),
                arguments: [vault]
            )
        else { return nil }
        do {
            var log = MembershipLog(vault: vault, firstRecovery: try PublicIdentity(bytes: Array(pinned)))
            let rows = try Data.fetchAll(
                db.cachedStatement(sql: "SELECT encoded FROM membership_operation WHERE vault = ? ORDER BY id"),
                arguments: [vault]
            )
            for encoded in rows { try log.insert(try MembershipOperation(encoded: Array(encoded))) }
            return log
        } catch {
            throw LedgerError.unreadableDatabase(
                path: path,
                reason: "the membership log of vault '\(OutsideText.escaped(vault))' does not decode",
                underlying: error
            )
        }
    }

    /// Whether `vault` has device keys here (a pinned first recovery identity).
    package func hasDevices(_ vault: String) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM vault_device WHERE vault = ?)"),
            arguments: [vault]
        ) ?? false
    }

    /// The vaults this ledger holds a membership log for.
    package func vaultsWithDevices() throws -> [String] {
        try String.fetchAll(db, sql: "SELECT vault FROM vault_device ORDER BY vault")
    }

    /// Pins `firstRecovery` as the vault's first recovery identity, unless one is pinned.
    /// - Returns: the identity pinned, which is `firstRecovery` or the one pinned before.
    @discardableResult
    package func pinFirstRecovery(_ vault: String, _ firstRecovery: PublicIdentity) throws -> PublicIdentity {
        try db.execute(
            sql: "INSERT INTO vault_device (vault, first_recovery) VALUES (?, ?) ON CONFLICT DO NOTHING",
            arguments: [vault, Data(firstRecovery.bytes)]
        )
        let pinned = try Data.fetchOne(
            db,
            sql: "SELECT first_recovery FROM vault_device WHERE vault = ?",
            arguments: [vault]
        )!
        return try PublicIdentity(bytes: Array(pinned))
    }

    /// Keeps `operations` (each already verified, of `log.vault`) in the vault's log; those
    /// held already change nothing.
    package func saveOperations(_ operations: some Sequence<MembershipOperation>, vault: String) throws {
        let statement = try db.cachedStatement(
            sql: "INSERT INTO membership_operation (id, vault, encoded) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
        )
        for operation in operations {
            try statement.execute(arguments: [Data(operation.id.bytes), vault, Data(operation.encoded)])
        }
    }
}

extension RecordStore {
    /// The greatest stamp time of `replica` among the registers this ledger holds of `vault`
    /// (its clear watermark's included); 0 if none: a removal's cut (devices.md).
    package func latestStampTime(_ vault: String, replica: ReplicaID) throws -> Int64 {
        var latest: Int64 = 0
        if let watermark = try watermark(vault).stamp, watermark.replica == replica { latest = watermark.time }
        try forEach(RecordQuery.stored(where: "record.vault = (SELECT num FROM vault WHERE id = ?)", [vault])) {
            state in
            for stamp in state.stamps where stamp.replica == replica { latest = max(latest, stamp.time) }
        }
        return latest
    }

    /// Forgets everything of `vault`'s device keys here: its membership log, its pinned first
    /// recovery identity and its set-aside writes (`removeVault`).
    func removeDevices(_ vault: String) throws {
        for table in ["vault_device", "membership_operation", "set_aside"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE vault = ?", arguments: [vault])
        }
    }
}
