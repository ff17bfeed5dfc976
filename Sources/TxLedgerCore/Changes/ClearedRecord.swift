import Foundation

/// A cleared record this device still holds (crdt.md, "Clearing a vault"): invisible in every
/// listing, restorable (`Ledger.restoreCleared(vault:ids:)`) until `restorableUntil`.
public struct ClearedRecord: Sendable, Equatable {
    /// The record as it was when cleared.
    public let record: TransactionRecord
    /// The replica of the device that cleared it.
    public let clearedBy: ReplicaID
    /// When it was cleared, by that device's clock: the clear's stamp, in milliseconds.
    public let clearedAtMillis: Int64
    /// The clearing device's name, where this ledger knows it (a vault with device keys).
    public package(set) var device: String?
    /// Until when this device keeps it: 30 days after it first held it cleared.
    public let restorableUntil: Date

    package init(record: TransactionRecord, clearedBy stamp: Stamp, restorableUntil: Date) {
        self.record = record
        clearedBy = stamp.replica
        clearedAtMillis = stamp.millis
        device = nil
        self.restorableUntil = restorableUntil
    }
}
