import Foundation
import TxLedgerCore
import TxLedgerMembership

/// A write that did not count because its device had been removed from the vault before it
/// (Specs/devices.md, "What counts as a member's write"): kept aside, never joined into the
/// record, and restorable by a member (`Ledger.restoreSetAside`).
public struct SetAsideWrite: Equatable, Sendable {
    public let vault: String
    /// The record it would have changed.
    public let id: TransactionID
    /// The removed device that wrote it.
    public let device: DeviceID
    /// The registers it would have changed (`facts`, `status`, `note`, `labels`, `hidden`,
    /// `newerFields`).
    public let registers: [String]
    /// The record as that device held it.
    public let record: TransactionRecord
    /// When this ledger set it aside.
    public let setAsideAt: Date
}
