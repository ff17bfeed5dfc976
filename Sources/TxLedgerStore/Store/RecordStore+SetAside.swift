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

    /// Keeps `state` set aside, if `cuts` refuse any of its registers, as the write of the
    /// removed device (`device` of its replica) that stamped the first one (a later one of the
    /// same device and record replaces it); at most `maxSetAsidePerVault` per vault are kept.
    /// - Returns: the registers refused (none: nothing to set aside).
    @discardableResult
    package func setAside(
        _ state: RecordState,
        refusedBy cuts: WriteCuts,
        device: (ReplicaID) -> DeviceID,
        now: Int64
    ) throws -> [String] {
        let registers = state.registers(refusedBy: cuts)
        guard let writer = state.stamps.first(where: { !cuts.counts($0) })?.replica else { return [] }
        let vault = state.facts.value.vaultId
        let held = try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM set_aside WHERE vault = ?"),
            arguments: [vault]
        )!
        guard held < Self.maxSetAsidePerVault else { return registers }
        let json = String(decoding: try JSONEncoder().encode(state.record), as: UTF8.self)
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO set_aside (vault, record, device, registers, json, received_ms)
                VALUES (?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [
                vault, Data(state.id.bytes), Data(device(writer).bytes), registers.joined(separator: ","), json, now,
            ]
        )
        return registers
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

    /// Forgets the set-aside writes of `vault` whose device is not in `removed` any more.
    package func forgetSetAside(_ vault: String, keeping removed: Set<DeviceID>) throws {
        for write in try setAsideWrites(vault) where !removed.contains(write.device) {
            try forgetSetAside(vault, id: write.id, device: write.device)
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
        var affected: [RecordState] = []
        try forEach(RecordQuery.stored(where: "record.vault = ?", [number])) {
            state in
            if state.stamps.contains(where: { !cuts.counts($0) }) { affected.append(state) }
        }
        for state in affected {
            try setAside(state, refusedBy: cuts, device: device, now: now)
            if let kept = state.filtered(by: cuts) {
                try save(kept)
            } else {
                try remove(state.id)
                markChanged()
            }
        }
        return affected.count
    }

    private func vaultNumber(_ vault: String) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT num FROM vault WHERE id = ?"), arguments: [vault])
    }
}
