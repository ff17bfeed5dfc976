import Foundation
import GRDB
import TxLedgerCore
import TxLedgerMembership

/// The `set_aside` table: writes of removed devices past their cuts, per vault, record and
/// device (Specs/devices.md, "What counts as a member's write"; schema.md, `v11: device keys`).
extension RecordStore {
    /// The most writes a vault keeps set aside; later ones are counted, not kept, so that a
    /// removed device cannot fill the ledger.
    package static let maxSetAsidePerVault = 10_000

    /// Keeps `state`, whose `registers` a cut refused, set aside as `device`'s write (a later
    /// one of the same device and record replaces it).
    /// - Returns: whether it was kept (false beyond `maxSetAsidePerVault`).
    @discardableResult
    package func setAside(_ state: RecordState, registers: [String], device: DeviceID, now: Int64) throws -> Bool {
        let vault = state.facts.value.vaultId
        let held = try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM set_aside WHERE vault = ?"),
            arguments: [vault]
        )!
        guard held < Self.maxSetAsidePerVault else { return false }
        let json = String(decoding: try JSONEncoder().encode(state.record), as: UTF8.self)
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO set_aside (vault, record, device, registers, json, received_ms)
                VALUES (?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [
                vault, Data(state.id.bytes), Data(device.bytes), registers.joined(separator: ","), json, now,
            ]
        )
        return true
    }

    /// The writes of `vault` set aside, oldest first.
    package func setAsideWrites(_ vault: String) throws -> [SetAsideWrite] {
        try Row.fetchAll(
            db,
            sql: "SELECT * FROM set_aside WHERE vault = ? ORDER BY received_ms, record, device",
            arguments: [vault]
        ).map { row in
            func damaged(_ error: (any Error & Sendable)?) -> LedgerError {
                .unreadableDatabase(path: path, reason: "a set-aside write does not decode", underlying: error)
            }
            let record: Data = row["record"]
            let device: Data = row["device"]
            let json: String = row["json"]
            let registers: String = row["registers"]
            let at: Int64 = row["received_ms"]
            guard device.count == DeviceID.byteCount, let id = TransactionID(bytes: record) else {
                throw damaged(nil)
            }
            do {
                return SetAsideWrite(
                    vault: vault,
                    id: id,
                    device: DeviceID(bytes: Array(device)),
                    registers: registers.split(separator: ",").map(String.init),
                    record: try JSONDecoder().decode(TransactionRecord.self, from: Data(json.utf8)),
                    setAsideAt: Date(millis: at)
                )
            } catch {
                throw damaged(error)
            }
        }
    }

    /// Forgets the set-aside write of `device` to record `id` of `vault`.
    package func forgetSetAside(_ vault: String, id: TransactionID, device: DeviceID) throws {
        try db.execute(
            sql: "DELETE FROM set_aside WHERE vault = ? AND record = ? AND device = ?",
            arguments: [vault, Data(id.bytes), Data(device.bytes)]
        )
    }

    /// Applies cuts learned after the rows were stored: every register they refuse is set
    /// aside and erased from its row (a row whose facts they refuse is deleted), and a clear
    /// watermark they refuse is lifted, so that what honest devices hold joins again.
    /// - Returns: how many records lost a register.
    package func apply(_ cuts: WriteCuts, vault: String, device: (ReplicaID) -> DeviceID, now: Int64) throws -> Int {
        guard !cuts.isEmpty, let number = try vaultNumber(vault) else { return 0 }
        if let watermark = try watermark(vault).stamp, !cuts.counts(watermark) {
            try db.execute(
                sql: "UPDATE vault SET cleared_time = NULL, cleared_replica = NULL, change_seq = ? WHERE id = ?",
                arguments: [changeSeq, vault]
            )
            watermarks[vault] = .some(nil)
            markChanged()
        }
        var affected: [(RecordState, [String])] = []
        try forEach("SELECT \(RecordRow.selection) FROM \(RecordRow.source) WHERE record.vault = ?", [number]) {
            state in
            let refused = state.registers(refusedBy: cuts)
            if !refused.isEmpty { affected.append((state, refused)) }
        }
        for (state, refused) in affected {
            let writer = state.stamps.first { !cuts.counts($0) }!.replica
            try setAside(state, registers: refused, device: device(writer), now: now)
            if let kept = state.filtered(by: cuts) {
                try save(kept)
            } else {
                try db.execute(sql: "DELETE FROM record WHERE id = ?", arguments: [Data(state.id.bytes)])
                markChanged()
            }
        }
        return affected.count
    }

    private func vaultNumber(_ vault: String) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT num FROM vault WHERE id = ?"), arguments: [vault])
    }
}
