/// What a clear made on another device took away here (crdt.md, "Clearing a vault"): what a
/// sync, an import or a merge reports as `cleared 6 records of vault main, by DEVICE, at TIME`.
/// They stay restorable on this device for 30 days (`Ledger.clearedRecords(vault:)`,
/// `Ledger.restoreCleared(vault:ids:)`).
public struct ClearReport: Sendable, Equatable, Codable {
    public let vault: String
    /// The replica of the device that cleared.
    public let replica: ReplicaID
    /// When it cleared, by that device's clock: the clear's stamp, in milliseconds.
    public let clearedAtMillis: Int64
    /// The device's name, where this ledger knows it (a vault with device keys).
    public package(set) var device: String?
    /// How many records that were visible here the clear took away.
    public package(set) var records: Int

    package init(vault: String, by stamp: Stamp, records: Int) {
        self.vault = vault
        replica = stamp.replica
        clearedAtMillis = stamp.millis
        device = nil
        self.records = records
    }

    /// Whether `other` counts records of the same clear.
    func isSameClear(as other: ClearReport) -> Bool {
        vault == other.vault && replica == other.replica && clearedAtMillis == other.clearedAtMillis
    }
}

extension ClearReport {
    /// Most clears a report lists: a hostile change set may carry a mark of its own on every
    /// record; what is cleared beyond them counts in `MergeReport.recordsCleared` alone.
    package static let maxListed = 64
}

extension [ClearReport] {
    /// Counts `clear`'s records with those of the same clear already here; a clear beyond
    /// `ClearReport.maxListed` is not listed (the search stays bounded).
    package mutating func count(_ clear: ClearReport) {
        if let index = firstIndex(where: { $0.isSameClear(as: clear) }) {
            self[index].records += clear.records
        } else if count < ClearReport.maxListed {
            append(clear)
        }
    }
}
